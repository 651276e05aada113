package remotewrite

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckFiles: the files a store's configuration names are read when
// the hub starts; each failure names its key and never what the file
// holds.
func TestCheckFiles(t *testing.T) {
	dir := t.TempDir()
	pw, empty := filepath.Join(dir, "pw"), filepath.Join(dir, "empty")
	os.WriteFile(pw, []byte("hunter2\n"), 0o600)
	os.WriteFile(empty, []byte("\n"), 0o600)
	url := "http://vm:8428/api/v1/write"
	cases := []struct {
		cfg  Config
		want string
	}{
		{Config{URL: url, BasicAuth: &BasicAuth{Username: "hub", PasswordFile: dir + "/none"}}, "basic_auth.password_file: open " + dir + "/none: no such file"},
		{Config{URL: url, BearerTokenFile: empty}, "bearer_token_file: " + empty + " is empty"},
		{Config{URL: url, TLS: TLSConfig{CAFile: pw}}, "tls: ca_file " + pw + " holds no PEM certificate"},
		{Config{URL: url, TLS: TLSConfig{CertFile: pw, KeyFile: pw}}, "tls: cert_file and key_file:"},
	}
	for _, c := range cases {
		err := c.cfg.CheckFiles()
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("%+v: %v, want %q", c.cfg, err, c.want)
		}
	}
	if err := (Config{URL: url, BasicAuth: &BasicAuth{Username: "hub", PasswordFile: pw}}).CheckFiles(); err != nil {
		t.Errorf("a readable password file: %v", err)
	}
}
