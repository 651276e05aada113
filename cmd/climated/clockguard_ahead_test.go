package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/history"
	"github.com/climated/climated/history/hub"
	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
)

// aheadHour is a reading every 10 minutes of the hour before end.
func aheadHour(end time.Time, v float64) []sensors.Reading {
	var rs []sensors.Reading
	for i := range 7 {
		rs = append(rs, sensors.Reading{Zone: "Indoor", Measurement: sensors.Temperature, Value: v, Time: end.Add(time.Duration(i-6) * 10 * time.Minute), Source: "demo"})
	}
	return rs
}

// aheadHistory is a demo house's configuration and a database whose
// clock was a year ahead (wrong) while it recorded an hour at 35 °C and
// ran on for ranOn: what compaction moved by then is in raw and the
// rollups, the rest in recent.
func aheadHistory(t *testing.T, ranOn time.Duration) (db, conf string, wrong time.Time) {
	t.Helper()
	dir := t.TempDir()
	db, conf = filepath.Join(dir, "climated.db"), filepath.Join(dir, "climated.yaml")
	if err := os.WriteFile(conf, []byte("demo:\n  enabled: true\n  interval: 1s\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	wrong = time.Now().Truncate(time.Second).AddDate(1, 0, 0)
	s, err := history.Open(t.Context(), db, &history.Options{Now: func() time.Time { return wrong.Add(ranOn) }})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Record(t.Context(), sensors.Batch{Readings: aheadHour(wrong, 35)}); err != nil {
		t.Fatal(err)
	}
	if err := errors.Join(s.Flush(t.Context()), s.Compact(t.Context()), s.Close(context.Background())); err != nil {
		t.Fatal(err)
	}
	return db, conf, wrong
}

// callJSON calls tool name and decodes its structured result into v.
func callJSON(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any, v any) {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil || res.IsError {
		t.Fatalf("%s: %v %+v", name, err, res)
	}
	raw, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("%s: %v\n%s", name, err, raw)
	}
}

// (a) The hub's clock was a year ahead while it recorded an hour of
// readings; then the clock was set right. A real climated serve on that
// database says so at start (how many, their range, how to delete them),
// and get_climate shows the demo house's real readings: When now, the
// extremes of today. get_history still finds the year-ahead hour. Before,
// the year-ahead readings stayed the latest (When a year ahead) and the
// window measured from them held no real reading.
func TestServeAfterTheClockWasAhead(t *testing.T) {
	db, conf, wrong := aheadHistory(t, 0)
	p := startServed(t, "serve", "--config", conf, "--listen", "127.0.0.1:0", "--db", db)
	defer p.stop(t)
	want := fmt.Sprintf("7 readings in the history are stamped ahead of the clock .* from %s to %s", rfc3339(wrong.Add(-time.Hour)), rfc3339(wrong))
	if !regexp.MustCompile(want).MatchString(p.logged()) || !strings.Contains(p.logged(), "climated forget --ahead") {
		t.Errorf("the start does not say %q and how to delete them:\n%s", want, p.logged())
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "ahead", Version: "1"}, nil).Connect(t.Context(), &sdk.StreamableClientTransport{Endpoint: p.base + "/mcp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	// The demo house's first live reading may come a moment after the
	// hub serves (its fill ends at the last whole minute): on a loaded
	// machine get_climate is asked until it has one, for up to 30 s. A
	// year-ahead reading is never within a minute of now.
	var in map[string]any
	var when, now time.Time
	testutil.EventuallyWithin(30*time.Second, func() bool {
		var c map[string]map[string]any
		callJSON(t, cs, "get_climate", map[string]any{}, &c)
		now, in = time.Now(), c["Indoor"]
		when = time.Unix(int64(num(in["When"])), 0)
		return !when.Before(now.Add(-time.Minute)) && !when.After(now.Add(time.Second)) && num(in["Temperature"]) != 35
	})
	if when.Before(now.Add(-time.Minute)) || when.After(now.Add(time.Second)) || num(in["Temperature"]) == 35 {
		t.Errorf("get_climate Indoor: When %v, Temperature %v; want the demo house's reading of now (%v)", when, in["Temperature"], now)
	}
	if lo, at := num(in["min_temp"]), int64(num(in["date_min_temp"])); lo == 0 || at > now.Unix() || num(in["max_temp"]) == 35 {
		t.Errorf("get_climate Indoor extremes: %v", in)
	}
	// get_history and export's --from answer up to a day ahead; export of
	// everything, beside the hub, has the whole history.
	data, err := climated("export", "--db", db, "--zone", "Indoor", "--measurement", "Temperature").Output()
	if n := strings.Count(string(data), ",Indoor,Temperature,35,"); err != nil || n != 7 {
		t.Errorf("export of the year-ahead hour: %d readings, want 7 (%v)\n%s", n, err, data)
	}
}

// (b) climated import of a file with a row a year ahead: the summary says
// so, with its time and how to delete it; the hub then shows the real
// readings; and the way it gives (climated forget --ahead)
// keeps those and deletes the row. Before, the row became the latest
// reading.
func TestImportRowAheadOfTheClock(t *testing.T) {
	dir := t.TempDir()
	now := time.Now().Truncate(time.Second)
	ahead := now.AddDate(1, 0, 0)
	var csv strings.Builder
	csv.WriteString("time,zone,measurement,value,source\n")
	for _, r := range aheadHour(now, 21) {
		fmt.Fprintf(&csv, "%s,Indoor,Temperature,21,t\n", rfc3339(r.Time))
	}
	fmt.Fprintf(&csv, "%s,Indoor,Temperature,35,t\n", rfc3339(ahead))
	file, db := filepath.Join(dir, "in.csv"), filepath.Join(dir, "climated.db")
	os.WriteFile(file, []byte(csv.String()), 0o600)
	out, errOut, code := runCLI(t, "import", "--db", db, file)
	want := "1 reading in the history is stamped ahead of the clock"
	if code != 0 || !strings.Contains(out, "imported 8 readings") || !strings.Contains(out, want) || !strings.Contains(out, "from "+rfc3339(ahead)+" to "+rfc3339(ahead)) {
		t.Fatalf("import: exit %d, stdout %s\nstderr %s", code, out, errOut)
	}
	current := func(db string) map[string]any {
		t.Helper()
		h, err := hub.OpenReadOnly(t.Context(), db, nil, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		defer h.Close(context.Background())
		return h.Snapshot().Climate["Indoor"]
	}
	if in := current(db); in["Temperature"] != 21.0 || in["When"] != now.Unix() || in["max_temp"] != 21.0 {
		t.Errorf("after the import, Indoor = %v; want 21 °C at %d", in, now.Unix())
	}

	if !strings.Contains(out, "climated forget --ahead --yes") {
		t.Fatalf("no way to delete it given:\n%s", out)
	}
	if out, errOut, code := runCLI(t, "forget", "--db", db, "--ahead", "--yes"); code != 0 || !strings.Contains(out, "deleted 1 reading ") {
		t.Errorf("forget as the import says: exit %d, %s %s", code, out, errOut)
	}
	data, err := climated("export", "--db", db).Output()
	if err != nil || strings.Count(string(data), ",Indoor,Temperature,21,") != 7 || strings.Contains(string(data), ",35,") {
		t.Errorf("after forget, the history holds\n%s", data)
	}
}
