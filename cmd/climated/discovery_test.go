package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/cmd/climated/internal/discovery"
	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/mcp/transport"
)

// lanConfig is a hub on every address of a network namespace of the
// test's own, without the demo house: its sources are no part of being
// found, and its first day of history costs the test binary in the
// namespace seconds (under -race, many).
func lanConfig(t *testing.T) config.Config {
	cfg := testConfig(t)
	cfg.Listen = "0.0.0.0:0"
	cfg.Demo.Enabled = new(false)
	return cfg
}

// startLANHub is startHub with Avahi where avahi says, by default
// nowhere (whatever the machine runs).
func startLANHub(t *testing.T, cfg config.Config, avahi ...avahiSeams) served {
	t.Helper()
	a := avahiSeams{Socket: filepath.Join(t.TempDir(), "no-avahi")}
	if len(avahi) > 0 {
		a = avahi[0]
	}
	return startHubEnv(t, cfg, serveEnv{avahi: a})
}

// browse is discovery.Browse for _mcp._tcp, failing the test on error.
func browse(t *testing.T) []discovery.Found {
	t.Helper()
	found, err := discovery.Browse(context.Background(), discovery.ServiceMCP)
	if err != nil {
		t.Fatal(err)
	}
	return found
}

// TestDiscoverHubOnLAN: a hub on every address announces _mcp._tcp with
// its port, path, protocol versions and auth kind, which a browse finds,
// and climated connect without a client lists it with its URL.
func TestDiscoverHubOnLAN(t *testing.T) {
	if !testutil.InNetns(t) {
		return
	}
	h := startLANHub(t, lanConfig(t))
	port := h.Addr.(*net.TCPAddr).Port
	found := browse(t)
	if len(found) != 1 {
		t.Fatalf("found %+v, want the hub", found)
	}
	f := found[0]
	want := map[string]string{"txtvers": "1", "path": "/mcp", "versions": strings.Join(transport.ProtocolVersions(), ","), "auth": "bearer"}
	if f.Port != port || !strings.HasPrefix(f.Instance, "climated on ") || fmt.Sprint(f.TXT) != fmt.Sprint(want) {
		t.Errorf("found %+v, want port %d and TXT %v", f, port, want)
	}
	url := fmt.Sprintf("http://127.0.0.1:%d/mcp", port)
	if f.URL() != url {
		t.Errorf("URL %s, want %s", f.URL(), url)
	}
	out, err := connectCmd(t, t.TempDir(), t.TempDir())
	if err != nil || !strings.Contains(out, f.Instance) || !strings.Contains(out, url) || !strings.Contains(out, "auth bearer") {
		t.Errorf("climated connect does not list the hub at %s: %v\n%s", url, err, out)
	}
}

// TestDiscoveryFalseAnnouncesNothing: a hub with discovery: false, and
// one on loopback, announce nothing; the browse that finds a hub in
// TestDiscoverHubOnLAN finds none here.
func TestDiscoveryFalseAnnouncesNothing(t *testing.T) {
	if !testutil.InNetns(t) {
		return
	}
	off := lanConfig(t)
	off.Discovery = new(false)
	startLANHub(t, off)
	loopback := lanConfig(t)
	loopback.Listen = "127.0.0.1:0"
	startLANHub(t, loopback)
	if found := browse(t); len(found) != 0 {
		t.Errorf("found %+v, want nothing announced", found)
	}
}

// TestServerCard: a hub on loopback serves its Server Card without a
// token, with its URLs, versions and auth; a hub with a token the same,
// saying that it needs one; another site's page cannot read it.
func TestServerCard(t *testing.T) {
	h := startHub(t, demoConfig(t))
	base := "http://" + h.Addr.String()
	card := serverCard(t, base)
	if card.Schema != "https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json" || card.Name != "io.github.climated/climated" || card.Version != buildVersion() || card.Description == "" {
		t.Errorf("card %+v", card)
	}
	if len(card.Remotes) != 2 || card.Remotes[0].Type != "streamable-http" || card.Remotes[0].URL != base+"/mcp" || card.Remotes[1].Type != "sse" || card.Remotes[1].URL != base+"/sse" {
		t.Fatalf("remotes %+v", card.Remotes)
	}
	if !slices.Equal(card.Remotes[0].Versions, transport.ProtocolVersions()) || slices.Contains(card.Remotes[1].Versions, "2026-07-28") || len(card.Remotes[1].Versions) == 0 {
		t.Errorf("versions %v / %v", card.Remotes[0].Versions, card.Remotes[1].Versions)
	}
	if card.Meta["io.github.climated/auth"]["kind"] != "none" || card.Remotes[0].Headers != nil {
		t.Errorf("auth of a loopback hub: %v %v", card.Meta, card.Remotes[0].Headers)
	}
	if code, _, _ := testutil.Do(t, base, testutil.Request{Method: http.MethodGet, Path: "/mcp/server-card", Header: map[string]string{"Origin": "https://evil.example"}}); code != http.StatusForbidden {
		t.Errorf("another site's page reads the card: %d", code)
	}
	if code, _, _ := testutil.Do(t, base, testutil.Request{Method: http.MethodGet, Path: "/mcp/server-card", Header: map[string]string{"Host": "rebound.example"}}); code != http.StatusForbidden {
		t.Errorf("a rebound name reads the card: %d", code)
	}

	url, _, _ := tokenHub(t)
	tbase := strings.TrimSuffix(url, "/mcp")
	card = serverCard(t, tbase)
	if card.Meta["io.github.climated/auth"]["kind"] != "bearer" || len(card.Remotes[0].Headers) != 1 || card.Remotes[0].Headers[0].Name != "Authorization" || !card.Remotes[0].Headers[0].IsSecret {
		t.Errorf("a hub with a token: %+v %+v", card.Meta, card.Remotes[0].Headers)
	}
	if card.Remotes[0].URL != url {
		t.Errorf("URL %s, want %s", card.Remotes[0].URL, url)
	}
}

type cardJSON struct {
	Schema      string `json:"$schema"`
	Name        string
	Version     string
	Description string
	Remotes     []struct {
		Type, URL string
		Headers   []struct {
			Name     string
			IsSecret bool
		}
		Versions []string `json:"supportedProtocolVersions"`
	}
	Meta map[string]map[string]any `json:"_meta"`
}

// serverCard gets the card at base, checks its media type and ETag (a
// second request with If-None-Match is 304), and decodes it.
func serverCard(t *testing.T, base string) cardJSON {
	t.Helper()
	resp, err := http.Get(base + "/mcp/server-card")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var c cardJSON
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/mcp-server-card+json" {
		t.Fatalf("GET %s/mcp/server-card: %s %s", base, resp.Status, resp.Header.Get("Content-Type"))
	}
	if err := json.NewDecoder(resp.Body).Decode(&c); err != nil {
		t.Fatal(err)
	}
	etag := resp.Header.Get("ETag")
	if code, _, _ := testutil.Do(t, base, testutil.Request{Method: http.MethodGet, Path: "/mcp/server-card", Header: map[string]string{"If-None-Match": etag}}); etag == "" || code != http.StatusNotModified {
		t.Errorf("ETag %q: a second request is %d, want 304", etag, code)
	}
	return c
}

// fakeAvahi is a socket where avahi-daemon's would be, which takes
// connections as the daemon's does, until the test ends.
func fakeAvahi(t *testing.T) string {
	t.Helper()
	sock := filepath.Join(t.TempDir(), "socket")
	testutil.Listening(t, "unix", sock)
	return sock
}

// TestDiscoveryThroughAvahi: where avahi-daemon runs and the hub is a
// systemd unit's (RUNTIME_DIRECTORY), the hub writes its Avahi service
// file; handed to Avahi (as the unit's ExecStartPost does), the built-in
// responder stays silent; not handed over in time, it announces the hub.
func TestDiscoveryThroughAvahi(t *testing.T) {
	if !testutil.InNetns(t) {
		return
	}
	run := t.TempDir()
	t.Setenv("RUNTIME_DIRECTORY", run)
	installed := filepath.Join(t.TempDir(), "climated.service")
	unit := make(chan error, 1)
	go func() { // the unit's ExecStartPost
		written := filepath.Join(run, discovery.AvahiFile)
		if !testutil.Eventually(func() bool { _, err := os.Stat(written); return err == nil }) {
			unit <- errors.New("the hub wrote no service file for Avahi")
			return
		}
		data, err := os.ReadFile(written)
		if err == nil {
			err = os.WriteFile(installed, data, 0o644)
		}
		unit <- err
	}()
	h := startLANHub(t, lanConfig(t), avahiSeams{Socket: fakeAvahi(t), Installed: installed, Wait: time.Minute})
	if err := <-unit; err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(installed)
	port := h.Addr.(*net.TCPAddr).Port
	if !strings.Contains(string(data), fmt.Sprintf("<type>_mcp._tcp</type>\n    <port>%d</port>", port)) || !strings.Contains(string(data), "<txt-record>auth=bearer</txt-record>") {
		t.Errorf("the service file:\n%s", data)
	}
	if found := browse(t); len(found) != 0 {
		t.Errorf("Avahi announces the hub, and so does its own responder: %+v", found)
	}

	os.RemoveAll(run)
	os.Mkdir(run, 0o755)
	startLANHub(t, lanConfig(t), avahiSeams{Socket: fakeAvahi(t), Installed: filepath.Join(t.TempDir(), "never"), Wait: 100 * time.Millisecond})
	if found := browse(t); len(found) != 1 {
		t.Errorf("not handed to Avahi, the hub is not announced: %+v", found)
	}
}
