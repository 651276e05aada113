package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfigHouseRuleLine: an invalid house rule (or webhook) in a configuration file
// is reported at the line of the field that is wrong, or of the rule when
// the field keeps its default, not at the line of house:.
func TestConfigHouseRuleLine(t *testing.T) {
	const head = "listen: 127.0.0.1:0\nalerts:\n  house:\n    frost:\n      enabled: false\n"
	cases := []struct {
		name, rules, want string
	}{
		{"threshold", "    co2:\n      for: 30m\n      threshold: 20000\n",
			":8: alerts.house.co2: rule: threshold: 20000 ppm is outside the range of CO2"},
		{"clear", "    mould:\n      threshold: 75\n      clear: 80\n",
			":8: alerts.house.mould: rule: clear: 80 is on the wrong side of the threshold 75"},
		{"window", "    storm:\n      window: 0s\n", ":7: alerts.house.storm: rule: window: 0s"},
		{"default field", "    battery:\n      enabled: true\n    mould:\n      threshold: 60\n",
			":8: alerts.house.mould: rule: clear: 65 is on the wrong side of the threshold 60"},
		{"default field, flow", "    mould: {threshold: 60}\n", ":6: alerts.house.mould: rule: clear"},
		{"webhook", "  webhook:\n    url: https://ntfy.sh/\n    format: gotify\n",
			":6: alerts.webhook.token: missing; Gotify needs an application token"},
		{"webhook format", "  webhook:\n    url: https://ntfy.sh/\n    format: pigeon\n", ":8: alerts.webhook.format: \"pigeon\""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "climated.yaml")
			if err := os.WriteFile(path, []byte(head+c.rules), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := Load(path, Default(), nil)
			if err == nil || !strings.Contains(err.Error(), path+c.want) {
				t.Errorf("error %v, want %s%s", err, path, c.want)
			}
		})
	}
}
