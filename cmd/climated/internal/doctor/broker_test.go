package doctor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// debianMosquittoConf is /etc/mosquitto/mosquitto.conf as Debian 12's
// mosquitto 2.0.11-1.2+deb12u2 installs it, but for its include_dir.
const debianMosquittoConf = `# Place your local configuration in /etc/mosquitto/conf.d/
#
# A full description of the configuration file is at
# /usr/share/doc/mosquitto/examples/mosquitto.conf.example

pid_file /run/mosquitto/mosquitto.pid

persistence true
persistence_location /var/lib/mosquitto/

log_dest file /var/log/mosquitto/mosquitto.log

include_dir %s
`

// The doctor warns when the broker is the local mosquitto as Debian
// installs it (no message_size_limit: 256 MB messages), is
// content once conf.d sets a limit, and says nothing of a broker
// elsewhere or without the file.
func TestDoctorBrokerLimit(t *testing.T) {
	dir := t.TempDir()
	confd := filepath.Join(dir, "conf.d")
	os.Mkdir(confd, 0o755)
	conf := filepath.Join(dir, "mosquitto.conf")
	os.WriteFile(conf, []byte(strings.Replace(debianMosquittoConf, "%s", confd, 1)), 0o644)
	os.WriteFile(filepath.Join(confd, "README"), []byte("message_size_limit 5\n"), 0o644) // not a .conf: mosquitto skips it

	f := checkBrokerLimit("tcp://127.0.0.1:1883", conf)
	if len(f) != 1 || f[0].Status != StatusWarn || !strings.Contains(f[0].Detail, "no message_size_limit") || f[0].Fix != brokerLimitFix {
		t.Errorf("Debian's configuration: %+v", f)
	}
	os.WriteFile(filepath.Join(confd, "climated.conf"), []byte("# the hub's broker\nmessage_size_limit 1048576\n"), 0o644)
	for _, broker := range []string{"tcp://localhost:1883", "mqtt://[::1]:1883", "tcp://127.0.0.1"} {
		f = checkBrokerLimit(broker, conf)
		if len(f) != 1 || f[0].Status != StatusOK || !strings.Contains(f[0].Detail, "1048576 bytes") || !strings.Contains(f[0].Detail, "climated.conf") {
			t.Errorf("%s with conf.d/climated.conf: %+v", broker, f)
		}
	}
	if f := checkBrokerLimit("tcp://192.168.1.10:1883", conf); f != nil {
		t.Errorf("a broker on another machine: %+v", f)
	}
	if f := checkBrokerLimit("tcp://127.0.0.1:1883", filepath.Join(dir, "absent.conf")); f != nil {
		t.Errorf("no local mosquitto: %+v", f)
	}
}
