package config

import (
	"strings"
	"testing"
)

// TestConfigTypeErrors: a value of the wrong type names the file, line,
// key, what was given and an example, in the user's words, not YAML's.
func TestConfigTypeErrors(t *testing.T) {
	cases := []struct {
		name, yaml string
		want       []string
	}{
		{"bool", "listen: 127.0.0.1:0\ndemo:\n  enabled: yes-please\n",
			[]string{`c.yaml:3: demo.enabled: "yes-please" is not true or false`, "write it as enabled: true"}},
		{"duration", "demo:\n  interval: 60\n",
			[]string{`c.yaml:2: demo.interval: "60" is not a duration`, "interval: 60s"}},
		{"int", "demo:\n  seed: many\n",
			[]string{`c.yaml:2: demo.seed: "many" is not a whole number`, "seed: 1"}},
		{"list", "allowed_hosts: hub.local\n",
			[]string{`c.yaml:1: allowed_hosts: "hub.local" is not a list`, "allowed_hosts: [hub.local]"}},
		{"in a list", "sensors:\n  - zone: Indoor\n    chip: bme280\n    interval: soon\n",
			[]string{`c.yaml:4: sensors[0].interval: "soon" is not a duration`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Check("c.yaml", []byte(c.yaml))
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			for _, leak := range []string{"!!", "unmarshal", "time.Duration", "int64"} {
				if strings.Contains(err.Error(), leak) {
					t.Errorf("error %q shows YAML's internals (%s)", err, leak)
				}
			}
		})
	}
}

// TestConfigDidYouMean: a misspelt key is named with the key meant, at
// its own level of the file.
func TestConfigDidYouMean(t *testing.T) {
	cases := []struct{ yaml, want string }{
		{"listne: 127.0.0.1:0\n", `c.yaml:1: unknown key listne: did you mean listen?`},
		{"demo:\n  intervall: 30s\n", `c.yaml:2: unknown key demo.intervall: did you mean interval?`},
		{"mqtt:\n  brokr: tcp://127.0.0.1:1883\n", `c.yaml:2: unknown key mqtt.brokr: did you mean broker?`},
		{"colour: blue\n", `c.yaml:1: unknown key colour`},
	}
	for _, c := range cases {
		_, err := Check("c.yaml", []byte(c.yaml))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.yaml, err, c.want)
		}
		if err != nil && c.yaml == "colour: blue\n" && strings.Contains(err.Error(), "did you mean") {
			t.Errorf("%q: a guess for a word like no key: %v", c.yaml, err)
		}
	}
}

func TestSummaryGrammar(t *testing.T) {
	cfg, err := Check("c.yaml", []byte("sensors:\n  - {zone: Indoor, chip: bme280}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if s := cfg.Summary(); !strings.Contains(s, "1 sensor,") && !strings.HasSuffix(s, "1 sensor") {
		t.Errorf("summary %q", s)
	}
}
