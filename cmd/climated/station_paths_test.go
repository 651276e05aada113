package main

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/cmd/climated/internal/token"
)

// TestStationPathTricks (found by an adversarial pass, held): on a running hub
// with a station, requests that do not carry the secret (dot segments,
// encoded slashes, double slashes, another case, other methods, the
// other guides' paths) are never taken as uploads, and no answer to them
// shows the secret; the stray paths shadow none of the hub's own routes.
func TestStationPathTricks(t *testing.T) {
	cfg := stationHub(t)
	h := startHub(t, cfg)
	secret, err := token.LoadOrCreate(cfg.StationSecretPath())
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + h.Addr.String()
	client := &http.Client{Timeout: 5 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	upload := "?ID=KX1&tempf=50"
	for _, c := range []struct{ method, path string }{
		{"GET", "/station/" + upload},
		{"GET", "/station/x/../" + upload},
		{"GET", "/station/%2e%2e/" + upload},
		{"GET", "/station/%2F/" + upload},
		{"GET", "//station//" + upload},
		{"GET", "/STATION/" + strings.ToUpper(secret) + "/" + upload},
		{"GET", "/station/" + secret[:len(secret)-1] + "/" + upload},
		{"PUT", "/station/wrong/" + upload},
		{"DELETE", "/data/report/" + upload},
		{"OPTIONS", "/weatherstation/updateweatherstation.php" + upload},
		{"GET", "/data/report/../../station/" + upload},
	} {
		req, _ := http.NewRequest(c.method, base+c.path, nil)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			t.Errorf("%s %s: 200 %q, an upload taken without the secret", c.method, c.path, body)
		}
		if strings.Contains(string(body), secret) || strings.Contains(resp.Header.Get("Location"), secret) {
			t.Errorf("%s %s: the answer shows the secret", c.method, c.path)
		}
	}
	for _, p := range []string{"/healthz", "/"} {
		resp, err := client.Get(base + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusNotFound {
			t.Errorf("GET %s: 404, shadowed", p)
		}
	}
}
