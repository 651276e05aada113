package history

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
)

func TestExportImportRoundTrip(t *testing.T) {
	now := time.Now().Truncate(time.Minute)
	rs := every("Living room", sensors.Temperature, now.Add(-3*time.Hour), 180, time.Minute, func(i int) float64 { return 20 + float64(i%13)/10 })
	rs = append(rs, every("Rain", sensors.Rain, now.Add(-3*time.Hour), 36, 5*time.Minute, func(i int) float64 { return []float64{0, 0.279, 0.559}[i%3] })...) // one and two 0.2794 mm tips, as the gauge records them
	rs = append(rs, every("Bedroom, upstairs", sensors.CO2, now.Add(-time.Hour), 60, time.Minute, func(i int) float64 { return 400 + float64(i) })...)
	a := storeWith(t, time.UTC, now, rs)
	ctx := context.Background()
	var csv1 bytes.Buffer
	n, err := a.Export(ctx, &csv1, Export{})
	if err != nil || n != int64(len(rs)) {
		t.Fatalf("export: %d rows, %v", n, err)
	}
	b := openTest(t, filepath.Join(t.TempDir(), "b.db"), &Options{Now: testutil.FixedClock(now)})
	var progress int64
	res, err := b.Import(ctx, bytes.NewReader(csv1.Bytes()), ImportOptions{Progress: func(n int64) { progress = n }})
	if err != nil || res.Imported != int64(len(rs)) || progress != res.Imported {
		t.Fatalf("import: %+v, progress %d, %v", res, progress, err)
	}
	var csv2 bytes.Buffer
	b.Export(ctx, &csv2, Export{})
	if csv1.String() != csv2.String() {
		t.Errorf("export after import differs:\n%.300s\nvs\n%.300s", csv1.String(), csv2.String())
	}
	// The imported history answers queries and the recent state.
	if got, was := snapshotOf(t, b).Climate["Rain"]["sum_rain_24"], snapshotOf(t, a).Climate["Rain"]["sum_rain_24"]; got != was {
		t.Errorf("sum_rain_24 after import %v, before %v", got, was)
	}
	var js bytes.Buffer
	n, err = a.Export(ctx, &js, Export{Zone: "Living room", From: now.Add(-time.Hour), Format: "json"})
	var rows []map[string]any
	if err != nil || json.Unmarshal(js.Bytes(), &rows) != nil || len(rows) != 60 || int64(len(rows)) != n || rows[0]["zone"] != "Living room" {
		t.Errorf("json export: %d rows, %v: %.200s", len(rows), err, js.String())
	}
	if _, err := a.Export(ctx, &js, Export{Format: "xml"}); err == nil || !strings.Contains(err.Error(), `"xml": want csv or json`) {
		t.Errorf("unknown format: %v", err)
	}
}

const brokenCSV = `time,zone,measurement,value,source
2026-11-30T08:00:00Z,Indoor,Temperature,21.5,a
2026-11-30T08:01:00Z,Indoor,Temperature,21.6
yesterday,Indoor,Temperature,21.7,a
2026-11-30T08:03:00Z,Indoor,Temperature,warm,a
2026-11-30T08:04:00Z,Indoor,Humidity,150,a
2026-11-30T08:05:00Z,Indoor,Radon,3,a
2026-11-30T08:06:00Z,Indoor,Temperature,NaN,a
2026-11-30T08:07:00Z,Indoor,Temperature,21.9,a
`

func TestImportBrokenLines(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	path := filepath.Join(t.TempDir(), "h.db")
	s := openTest(t, path, &Options{Now: testutil.FixedClock(now)})
	res, err := s.Import(ctx, strings.NewReader(brokenCSV), ImportOptions{})
	if err == nil {
		t.Fatal("a file with broken lines was imported")
	}
	for _, want := range []string{"nothing imported", "6 broken lines", "line 3: 4 fields, want 5", `line 4: time "yesterday"`,
		`line 5: value "warm" is not a number`, "line 6: reading Indoor", "Humidity: 150 % is outside 0…100", `line 7: reading Indoor from "a": unknown measurement "Radon"`, "line 8:", "not a number"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not say %q:\n%v", want, err)
		}
	}
	s.Flush(ctx)
	if n := rawCount(t, path); n != 0 || res.Imported != 0 {
		t.Errorf("%d rows after a refused import", n)
	}
	res, err = s.Import(ctx, strings.NewReader(brokenCSV), ImportOptions{SkipBad: true})
	if err != nil || res.Imported != 2 || res.Bad.N != 6 || res.Bad.First[0].Line != 3 {
		t.Errorf("skip-bad import: %+v %v", res, err)
	}
	if n := rawCount(t, path); n != 2 {
		t.Errorf("%d rows after importing the good lines, want 2", n)
	}
	if _, err := s.Import(ctx, strings.NewReader("when,where\n"), ImportOptions{}); err == nil || !strings.Contains(err.Error(), "line 1: header") {
		t.Errorf("wrong header: %v", err)
	}
}

func TestBackupWhileWriting(t *testing.T) {
	dir := t.TempDir()
	s := openTest(t, filepath.Join(dir, "h.db"), &Options{FlushInterval: 5 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		start := time.Now().Add(-24 * time.Hour)
		for i := 0; ctx.Err() == nil; i++ {
			s.Record(ctx, sensors.Batch{Readings: every("Indoor", sensors.Temperature, start.Add(time.Duration(i)*time.Hour), 60, time.Minute, func(int) float64 { return 20 })})
		}
	}()
	// Back up while the writing goes on, once some of it is on disk.
	for deadline := time.Now().Add(10 * time.Second); rawCount(t, filepath.Join(dir, "h.db")) == 0; {
		if time.Now().After(deadline) {
			t.Fatal("nothing written within 10 s")
		}
		time.Sleep(5 * time.Millisecond)
	}
	backup := filepath.Join(dir, "backup.db")
	err := s.Backup(context.Background(), backup)
	cancel()
	<-done
	if err != nil {
		t.Fatal(err)
	}
	db, _ := sql.Open("sqlite", backup)
	defer db.Close()
	var check string
	var n int
	db.QueryRow("PRAGMA integrity_check").Scan(&check)
	db.QueryRow("SELECT count(*) FROM " + rawView).Scan(&n)
	if check != "ok" || n == 0 || n%60 != 0 {
		t.Errorf("backup: integrity %q, %d rows (whole batches of 60 expected)", check, n)
	}
	if err := s.Backup(context.Background(), backup); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("backup over an existing file: %v", err)
	}
}
