package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/climated/climated/cmd/climated/internal/connect"
	"github.com/climated/climated/cmd/climated/internal/doctor"
	"github.com/climated/climated/cmd/climated/internal/httpserve"
	"github.com/climated/climated/cmd/climated/internal/hubfile"
)

// TestCommandsTakeTheHubsWord: a hub started on another port than its
// configuration says (serve --listen) tells the commands beside it where
// it is: connect points the client at the hub's real address, doctor
// says the hub answers elsewhere; once the hub stops, the file is gone
// and they go by the configuration again.
func TestCommandsTakeTheHubsWord(t *testing.T) {
	cfg := demoConfig(t)
	h, stop := runHub(t, cfg) // 127.0.0.1:0: a port of its own
	real := httpserve.BaseURL(h.Addr)
	asFiled := cfg
	asFiled.Listen = "127.0.0.1:1" // what the file says; nothing listens there

	target, err := connect.NewTarget(asFiled, "", "", "climated")
	if err != nil {
		t.Fatal(err)
	}
	if target.URL != real+"/mcp" || !target.Answering {
		t.Errorf("connect: %s (answering %v), want the running hub's %s/mcp", target.URL, target.Answering, real)
	}
	var b bytes.Buffer
	doctor.Run(context.Background(), asFiled, doctor.Env{Run: func(context.Context, string, ...string) (string, error) { return "", nil }}, false, &b)
	if !strings.Contains(b.String(), "answers at "+strings.TrimPrefix(real, "http://")+", not at the configuration's 127.0.0.1:1") {
		t.Errorf("doctor does not say where the hub answers:\n%s", b.String())
	}

	stop()
	if _, err := os.Stat(hubfile.Path(cfg.Database)); !os.IsNotExist(err) {
		t.Errorf("the hub file stays after the hub stopped: %v", err)
	}
	target, err = connect.NewTarget(asFiled, "", "", "climated")
	if err != nil {
		t.Fatal(err)
	}
	if target.URL != "http://127.0.0.1:1/mcp" || target.Answering {
		t.Errorf("connect with the hub stopped: %s (answering %v), want the configuration's", target.URL, target.Answering)
	}
}
