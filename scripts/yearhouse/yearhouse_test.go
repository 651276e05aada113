package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/history"
	"github.com/climated/climated/internal/testutil"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestYearHouseSmall runs the benchmark end to end on a house of three
// days: the real climated import and serve, every answer measured. Each
// tool, resource, template and prompt the hub lists (asked again here,
// by a client of the test's own) has a row or a line that says why not;
// every answer has a size; the house holds what it should.
func TestYearHouseSmall(t *testing.T) {
	if testing.Short() {
		t.Skip("builds climated and measures a hub: not in -short")
	}
	bin := buildClimated(t)
	dir := t.TempDir()
	var out, progress bytes.Buffer
	o := options{bin: bin, days: 3, runs: 1, seed: 1, json: true, goal: 50 * time.Millisecond,
		timezone: "Europe/Berlin", work: dir, keep: true}
	if err := run(context.Background(), o, &out, &progress); err != nil {
		t.Fatalf("%v\n%s", err, progress.String())
	}
	var rep report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("-json: %v\n%s", err, out.String())
	}
	checkHouse(t, rep, 3)
	for _, r := range rep.Rows {
		if r.Error != "" || r.Bytes <= 0 || r.MedianMS <= 0 || r.Tokens != (r.Bytes+3)/4 {
			t.Errorf("row %+v: want no error, a time, a size and its tokens", r)
		}
	}
	for _, want := range []string{"get_climate", "get_history Garden/WindAngle a year", "climate://records/Garden",
		"climate://daily/Garden?from=7d", "climate://daily/Living?from=30d", "climate://months/Garden", "climate://months/Living",
		"write_climate_report weather_report last_7_days", "write_climate_report climate_report last_7_days",
		"/dash/history Garden/Temperature 1y", "/dash/history Living/CO2 30d"} {
		if !hasRow(rep, want) {
			t.Errorf("no row %q", want)
		}
	}

	// The same database served again: the features it lists, and the
	// table of -url.
	h, err := serve(bin, filepath.Join(dir, "climated.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	defer h.stop()
	tok, err := os.ReadFile(filepath.Join(dir, "token"))
	if err != nil {
		t.Fatal(err)
	}
	for kind, names := range listed(t, h.url, strings.TrimSpace(string(tok))) {
		for _, name := range names {
			if !accounted(rep, name) {
				t.Errorf("%s %s is listed by the hub but neither measured nor said not measured", kind, name)
			}
		}
	}
	out.Reset()
	o = options{url: h.url, token: strings.TrimSpace(string(tok)), runs: 1, days: 1, goal: 50 * time.Millisecond}
	if err := run(context.Background(), o, &out, &progress); err != nil {
		t.Fatal(err)
	}
	table := out.String()
	for _, want := range []string{"| answer | median of 1 | bytes | ~tokens | ≤ 50 ms |", "| get_climate | ", "| climate://months/Garden | ", " answers, "} {
		if !strings.Contains(table, want) {
			t.Errorf("the table lacks %q:\n%s", want, table)
		}
	}
}

// checkHouse: days of the station's seven measurements a minute and the
// rooms' three every five minutes, with some rain; imported and served.
func checkHouse(t *testing.T, rep report, days int64) {
	t.Helper()
	base := days * (24*60*7 + 2*24*12*3)
	if rep.House == nil || rep.House.Readings <= base || rep.House.Readings > base+days*24*60 {
		t.Errorf("house %+v: want %d readings and a rain reading for some minutes", rep.House, base)
	}
	if rep.Import == nil || rep.Import.PerSec <= 0 || rep.Import.DBBytes <= 0 || rep.StartSeconds <= 0 {
		t.Errorf("import %+v, started after %v s: want its rate, the database's size and the start", rep.Import, rep.StartSeconds)
	}
}

func hasRow(rep report, answer string) bool {
	for _, r := range rep.Rows {
		if r.Answer == answer {
			return true
		}
	}
	return false
}

// accounted reports whether the tool, resource, template or prompt
// called name has a row, or a line saying why it has none.
func accounted(rep report, name string) bool {
	for _, r := range rep.Rows {
		if r.Of == name {
			return true
		}
	}
	for _, s := range rep.NotMeasured {
		if s.Of == name {
			return true
		}
	}
	return false
}

// listed is what the hub at url lists, by kind.
func listed(t *testing.T, url, tok string) map[string][]string {
	t.Helper()
	ctx := context.Background()
	hc := &http.Client{Transport: bearer{token: tok, next: http.DefaultTransport}}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).
		Connect(ctx, &sdk.StreamableClientTransport{Endpoint: url, HTTPClient: hc}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	got := map[string][]string{}
	check := func(err error) {
		if err != nil {
			t.Fatalf("list: %v", err)
		}
	}
	for x, err := range cs.Tools(ctx, nil) {
		check(err)
		got["tool"] = append(got["tool"], x.Name)
	}
	for x, err := range cs.Resources(ctx, nil) {
		check(err)
		got["resource"] = append(got["resource"], x.URI)
	}
	for x, err := range cs.ResourceTemplates(ctx, nil) {
		check(err)
		got["template"] = append(got["template"], x.URITemplate)
	}
	for x, err := range cs.Prompts(ctx, nil) {
		check(err)
		got["prompt"] = append(got["prompt"], x.Name)
	}
	if len(got["tool"]) < 3 || len(got["template"]) < 3 || len(got["prompt"]) < 3 {
		t.Fatalf("the hub lists too little: %v", got)
	}
	return got
}

// TestYearHouseUnreachable: with no hub at the URL the benchmark fails,
// saying so, rather than printing an empty table.
func TestYearHouseUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	var out, progress bytes.Buffer
	o := options{url: "http://" + addr + "/mcp", runs: 1, days: 1, goal: 50 * time.Millisecond}
	err = run(context.Background(), o, &out, &progress)
	if err == nil || !strings.Contains(err.Error(), "connect to http://"+addr) {
		t.Errorf("run against nothing: %v, want an error saying it could not connect", err)
	}
	if out.Len() != 0 {
		t.Errorf("printed a table of nothing:\n%s", out.String())
	}
}

// TestHouseReproducible: the same seed and end give the same file; a
// different seed another.
func TestHouseReproducible(t *testing.T) {
	dir := t.TempDir()
	end := time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)
	var files [3][]byte
	for i, seed := range []uint64{1, 1, 2} {
		path := filepath.Join(dir, "house.csv")
		if _, err := writeHouse(path, 1, seed, end, time.UTC); err != nil {
			t.Fatal(err)
		}
		files[i], _ = os.ReadFile(path)
	}
	if !bytes.Equal(files[0], files[1]) || bytes.Equal(files[0], files[2]) {
		t.Errorf("seed 1 twice equal: %v, seeds 1 and 2 differ: %v", bytes.Equal(files[0], files[1]), !bytes.Equal(files[0], files[2]))
	}
	if want := strings.Join(history.ExportHeader, ",") + "\n"; !bytes.HasPrefix(files[0], []byte(want)) {
		t.Errorf("the file does not start with climated export's header %q: %.80s", want, files[0])
	}
}

// buildClimated builds the hub from this checkout.
func buildClimated(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "climated")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/climated")
	cmd.Dir = testutil.Root(t)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}
