package config

import (
	"slices"
	"strings"
	"testing"
)

func TestDefaultDatabase(t *testing.T) {
	t.Setenv("STATE_DIRECTORY", "/var/lib/climated:/var/lib/other")
	if got := defaultDatabase(); got != "/var/lib/climated/climated.db" {
		t.Errorf("under systemd: %s", got)
	}
	t.Setenv("STATE_DIRECTORY", "")
	t.Setenv("XDG_STATE_HOME", "/home/u/.state")
	if got := defaultDatabase(); got != "/home/u/.state/climated/climated.db" {
		t.Errorf("with XDG_STATE_HOME: %s", got)
	}
	t.Setenv("XDG_STATE_HOME", "")
	t.Setenv("HOME", "/home/u")
	if got := defaultDatabase(); got != "/home/u/.local/state/climated/climated.db" {
		t.Errorf("per user: %s", got)
	}
}

func TestNeedsToken(t *testing.T) {
	for listen, want := range map[string]bool{
		"127.0.0.1:8473": false, "[::1]:8473": false, "localhost:8473": false,
		"0.0.0.0:8473": true, "192.168.1.20:8473": true, "[::]:8473": true, ":8473": true,
	} {
		c := Config{Listen: listen}
		if got := c.NeedsToken(); got != want {
			t.Errorf("NeedsToken(%s) = %v, want %v", listen, got, want)
		}
	}
	c := Config{Listen: "127.0.0.1:8473", PublicURL: "https://hub.example.ts.net"}
	if !c.NeedsToken() {
		t.Error("a hub on loopback with a public_url (behind a tunnel) needs no token")
	}
}

func TestPublicURL(t *testing.T) {
	for s, ok := range map[string]bool{
		"": true, "https://hub.example.ts.net": true, "https://hub.example:8443": true, "http://127.0.0.1:8473": true,
		"http://hub.example": false, "https://hub.example/": false, "https://hub.example/mcp": false,
		"https://hub.example?x=1": false, "hub.example": false, "https://u:p@hub.example": false,
	} {
		if err := checkPublicURL(s); (err == nil) != ok {
			t.Errorf("public_url %q: %v, want ok %v", s, err, ok)
		}
	}
}

// TestHostsLetThePublicNameIn: with allowed_hosts set, the tunnel's name
// (the Host it passes on) is accepted as well; without, nothing is added.
func TestHostsLetThePublicNameIn(t *testing.T) {
	for _, c := range []struct {
		allowed []string
		public  string
		want    []string
	}{
		{nil, "https://hub.example.ts.net", nil},
		{[]string{"climated.lan"}, "", []string{"climated.lan"}},
		{[]string{"climated.lan"}, "https://hub.example.ts.net:8443", []string{"climated.lan", "hub.example.ts.net"}},
		{[]string{"hub.example.ts.net"}, "https://hub.example.ts.net", []string{"hub.example.ts.net"}},
	} {
		cfg := Config{AllowedHosts: c.allowed, PublicURL: c.public}
		if got := cfg.Hosts(); !slices.Equal(got, c.want) {
			t.Errorf("allowed_hosts %v, public_url %q: Hosts %v, want %v", c.allowed, c.public, got, c.want)
		}
		if len(cfg.AllowedHosts) != len(c.allowed) {
			t.Errorf("Hosts changed allowed_hosts to %v", cfg.AllowedHosts)
		}
	}
}

// TestDiscovery: the hub announces itself when it listens beyond loopback
// and discovery is not false; on loopback never, since nothing on the LAN
// could reach what it would announce.
func TestDiscovery(t *testing.T) {
	on, off := new(true), new(false)
	for _, c := range []struct {
		listen    string
		discovery *bool
		announces bool
	}{
		{"0.0.0.0:8473", nil, true}, {"192.168.1.20:8473", on, true}, {"0.0.0.0:8473", off, false},
		{"127.0.0.1:8473", nil, false}, {"[::1]:8473", off, false},
	} {
		cfg := Config{Listen: c.listen, Discovery: c.discovery}
		if got := cfg.Announces(); got != c.announces {
			t.Errorf("listen %s, discovery %v: announces %v, want %v", c.listen, c.discovery, got, c.announces)
		}
	}
	for _, ok := range []string{"listen: 0.0.0.0:8473\ndiscovery: true\n", "discovery: false\n", "discovery: true\n"} {
		if _, err := Check("c.yaml", []byte(ok)); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	if _, err := Check("c.yaml", []byte("discovery: maybe\n")); err == nil || !strings.Contains(err.Error(), "c.yaml:1") {
		t.Errorf("discovery: maybe: %v, want an error on line 1", err)
	}
}
