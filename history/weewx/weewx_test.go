package weewx

import (
	"context"
	"database/sql"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
)

// readAll reads every record of the archive at path.
func readAll(t *testing.T, path string, o *Options) []sensors.Reading {
	t.Helper()
	ctx := context.Background()
	a, err := Open(ctx, path, o)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	rows, err := a.Rows(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var rs []sensors.Reading
	for {
		row, err := rows.Next(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil || row.Err != nil {
			t.Fatalf("%s: %v %v", row.Where, err, row.Err)
		}
		rs = append(rs, row.Readings...)
	}
	if rows.Read() != a.Records() {
		t.Errorf("read %d records of %d", rows.Read(), a.Records())
	}
	return rs
}

// TestWeewxUnitSystemsAgree: the US archive and weewx's own conversion
// of it to METRIC (rain in cm, rain rate in cm/h, wind in km/h) give the
// same readings once the import has converted each into the catalogue's
// units.
func TestWeewxUnitSystemsAgree(t *testing.T) {
	us := readAll(t, filepath.Join("..", "..", "testdata", "weewx", "us-extended.sdb"), nil)
	metric := readAll(t, filepath.Join("..", "..", "testdata", "weewx", "metric-extended.sdb"), nil)
	if len(us) != len(metric) || len(us) < 10000 {
		t.Fatalf("%d readings from US units, %d from METRIC", len(us), len(metric))
	}
	seen := map[sensors.Measurement]bool{}
	for i, u := range us {
		m := metric[i]
		if u.Zone != m.Zone || u.Measurement != m.Measurement || !u.Time.Equal(m.Time) || math.Abs(u.Value-m.Value) > 1e-6*math.Max(1, math.Abs(u.Value)) {
			t.Fatalf("reading %d: %+v from US units, %+v from METRIC", i, u, m)
		}
		seen[u.Measurement] = true
	}
	for _, m := range []sensors.Measurement{sensors.Temperature, sensors.Pressure, sensors.Rain, sensors.RainRate, sensors.WindStrength, sensors.GustStrength} {
		if !seen[m] {
			t.Errorf("no %s compared", m)
		}
	}
}

// TestWeewxColumns: weewx's numbered columns go to the parts the hub's
// station names (extraTemp2 to channel2, soilMoist1 to soil1 …), a zone
// given for a column goes before its part's, and an empty one leaves the
// column out.
func TestWeewxColumns(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "weewx", "metricwx-wview.sdb"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "wview.sdb")
	os.WriteFile(path, b, 0o600)
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	// The wview schema has extraTemp1-3, extraHumid1-2, soilTemp1-4,
	// soilMoist1-4, leafTemp1-2 and leafWet1-2.
	for _, s := range []string{
		"UPDATE archive SET extraTemp2 = 12.5, extraHumid1 = 40, soilTemp1 = 9, soilMoist1 = 35, leafWet2 = 7, leafTemp2 = 20 WHERE dateTime = 1277969400",
		"UPDATE archive SET extraTemp2 = 10 WHERE dateTime = 1277971200",
	} {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	rs := readAll(t, path, &Options{Zones: map[string]string{"soil1": "Beds", "soilTemp1": "Beds deep", "leafWet2": "", "outdoor": "Garden"}})
	got := map[[2]string][]float64{}
	for _, r := range rs {
		if r.Time.Unix() <= 1277971200 && r.Zone != "Garden" && r.Zone != "Station console" {
			k := [2]string{r.Zone, string(r.Measurement)}
			got[k] = append(got[k], r.Value)
		}
	}
	want := map[[2]string][]float64{
		{"Station channel2", "Temperature"}: {12.5, 10},
		{"Station channel1", "Humidity"}:    {40},
		{"Beds deep", "Temperature"}:        {9},
		{"Beds", "SoilMoisture"}:            {35},
		{"Station leaf2", "Temperature"}:    {20},
	}
	if len(got) != len(want) {
		t.Errorf("got %v, want %v", got, want)
	}
	for k, w := range want {
		if g := got[k]; len(g) != len(w) || math.Abs(g[0]-w[0]) > 1e-9 || math.Abs(g[len(g)-1]-w[len(w)-1]) > 1e-9 {
			t.Errorf("%v: %v, want %v", k, g, w)
		}
	}
	if rs[0].Zone != "Garden" && rs[0].Zone != "Station console" || !rs[0].Time.Equal(time.Unix(1277969400, 0)) && !rs[0].Time.Equal(time.Unix(1277969399, 0)) {
		t.Errorf("first reading %+v", rs[0])
	}
}

// TestWeewxNotAnArchive: a SQLite file without weewx's archive table,
// and a file that is no database, are refused with what was expected.
func TestWeewxNotAnArchive(t *testing.T) {
	dir := t.TempDir()
	other := filepath.Join(dir, "other.db")
	db, _ := sql.Open("sqlite", other)
	db.Exec("CREATE TABLE readings (t INTEGER)")
	db.Close()
	text := filepath.Join(dir, "notes.txt")
	os.WriteFile(text, []byte("not a database at all, just some words"), 0o600)
	for _, path := range []string{other, text, filepath.Join(dir, "missing.sdb")} {
		a, err := Open(context.Background(), path, nil)
		if err == nil {
			a.Close()
			t.Errorf("%s: opened", path)
			continue
		}
		t.Logf("%s: %v", filepath.Base(path), err)
	}
	if _, err := Open(context.Background(), other, nil); err == nil || !strings.Contains(err.Error(), "no weewx archive") {
		t.Errorf("other.db: %v", err)
	}
}
