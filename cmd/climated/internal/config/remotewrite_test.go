package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRemoteWriteErrors: each mistake in remote_write is named by its key
// and line; the secrets' files are not read (a shell's user may not read
// the service's): a configuration naming one that is not there passes.
func TestRemoteWriteErrors(t *testing.T) {
	dir := t.TempDir()
	pw := filepath.Join(dir, "pw")
	os.WriteFile(pw, []byte("hunter2\n"), 0o600)
	cases := []struct{ yaml, want string }{
		{"remote_write:\n  - url: victoria:8428\n", `c.yaml:2: remote_write[0].url: "victoria:8428" is not an http or https URL`},
		{"remote_write:\n  - url: http://u:p@vm:8428/api/v1/write\n", `c.yaml:2: remote_write[0].url: no user or password in the URL`},
		{"remote_write:\n  - url: http://vm:8428/api/v1/write\n    bearer_token_file: " + pw + "\n    basic_auth: {username: hub, password_file: " + pw + "}\n", "basic_auth or bearer_token_file, not both"},
		{"remote_write:\n  - url: http://vm:8428/api/v1/write\n    labels: {zone: x}\n", `remote_write[0].labels: "zone" is not a label name of our own`},
		{"remote_write:\n  - url: http://vm:8428/api/v1/write\n    tls: {cert_file: " + pw + "}\n", "remote_write[0].tls: cert_file and key_file go together"},
		{"remote_write:\n  - url: http://vm:8428/api/v1/write\n    basic_auth: {username: hub}\n", "c.yaml:3: remote_write[0].basic_auth.password_file: missing"},
		{"remote_write:\n  - url: http://vm:8428/api/v1/write\n    batch_size: 100000\n", "c.yaml:3: remote_write[0].batch_size 100000: want 1 to 50000"},
		{"remote_write:\n  - url: http://vm:8428/api/v1/write\n  - url: http://vm:8428/api/v1/write\n", "remote_write[1].url: http://vm:8428/api/v1/write is in remote_write twice"},
		{"remote_write:\n  - url: http://vm:8428/api/v1/write\n    protocol: 2\n", `c.yaml:3: remote_write[0].protocol: "2" is not a version of remote write the hub sends: want 1.0 (the default; every store takes it) or 2.0`},
	}
	for _, c := range cases {
		_, err := Check("c.yaml", []byte(c.yaml))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.yaml, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "hunter2") {
			t.Errorf("the error shows the secret: %v", err)
		}
	}
	if _, err := Check("c.yaml", []byte("remote_write:\n  - url: http://vm:8428/api/v1/write\n    basic_auth: {username: hub, password_file: "+dir+"/none}\n    labels: {house: cabin}\n")); err != nil {
		t.Errorf("a good remote_write: %v", err)
	}
	for _, v := range []string{"1.0", "2.0", `"2.0"`} {
		cfg, err := Check("c.yaml", []byte("remote_write:\n  - url: http://vm:8428/api/v1/write\n    protocol: "+v+"\n"))
		if err != nil || cfg.RemoteWrite[0].Protocol != strings.Trim(v, `"`) {
			t.Errorf("protocol: %s: %v, %+v", v, err, cfg.RemoteWrite)
		}
	}
}
