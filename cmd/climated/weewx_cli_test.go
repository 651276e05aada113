package main

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/climated/climated/history"
	"github.com/climated/climated/internal/testutil"
)

// weewxCopy is a copy of one of testdata/weewx's archives, changed by
// the statements given.
func weewxCopy(t *testing.T, name string, statements ...string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(testutil.Root(t), "testdata", "weewx", name))
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(file, b, 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", file)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range statements {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	return file
}

// seriesCount is how many series the database at db holds (0 when it
// has none or does not exist).
func seriesCount(t *testing.T, db string) int {
	t.Helper()
	if _, err := os.Stat(db); err != nil {
		return 0
	}
	sdb, err := sql.Open("sqlite", "file:"+db+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer sdb.Close()
	var n int
	if err := sdb.QueryRow("SELECT count(*) FROM series").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestWeewxBrokenRecords: an archive with an impossible value and a
// record in no unit system imports nothing, and the error names each
// record by its number and dateTime and the column; with --skip-bad the
// rest is imported, the bad values left out.
func TestWeewxBrokenRecords(t *testing.T) {
	file := weewxCopy(t, "us-extended.sdb",
		"UPDATE archive SET outTemp = 500 WHERE dateTime = 1267500600",
		"UPDATE archive SET usUnits = 5 WHERE dateTime = 1267518600",
		"UPDATE archive SET windSpeed = 'calm' WHERE dateTime = 1267520400")
	db := filepath.Join(t.TempDir(), "h.db")
	out, errOut, code := runCLI(t, "import", "--db", db, "--from", "weewx", file)
	for _, want := range []string{"nothing imported: 3 broken records", "--skip-bad",
		"dateTime 1267500600, 2010-03-02T03:30:00Z): outTemp 500 °F: Temperature: 260 °C is outside",
		"dateTime 1267518600, 2010-03-02T08:30:00Z): usUnits 5: none of weewx's unit systems",
		`windSpeed: "calm" is not a number`} {
		if code == 0 || !strings.Contains(errOut, want) {
			t.Errorf("exit %d, want %q in\n%s%s", code, want, out, errOut)
		}
	}
	if n := seriesCount(t, db); n != 0 {
		t.Errorf("a failed import left %d series", n)
	}
	out, errOut, code = runCLI(t, "import", "--db", db, "--from", "weewx", "--skip-bad", file)
	if code != 0 || !strings.Contains(out, "(3 broken records, their bad values skipped)") || !strings.Contains(errOut, "outTemp 500") {
		t.Fatalf("--skip-bad: exit %d\n%s%s", code, out, errOut)
	}
	store, err := history.OpenReadOnly(context.Background(), db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close(context.Background())
	rec, err := store.Records(context.Background(), "Station outdoor")
	if err != nil {
		t.Fatal(err)
	}
	// The generator's warmest is 65.72 °F (18.7 °C); 500 °F was left out.
	if hi := rec.Measurements["Temperature"].Ever.Max; hi > 19 {
		t.Errorf("highest temperature %g °C: the bad value was imported", hi)
	}
	if _, ok := rec.Measurements["Rain"]; !ok {
		t.Errorf("no rain imported with --skip-bad: %+v", rec.Measurements)
	}
}

// TestWeewxImportTwiceRefused: the same archive imported again would
// count its rain twice, so the second import refuses and says how to go
// on; leaving the rain out goes on, and each of its readings is imported
// again (replacing itself) or, its time past the raw retention and summarised
// already, left out and counted: which, depends on whether the retention
// pass of the first import had run.
func TestWeewxImportTwiceRefused(t *testing.T) {
	file := filepath.Join(testutil.Root(t), "testdata", "weewx", "metricwx-wview.sdb")
	db := filepath.Join(t.TempDir(), "h.db")
	if _, errOut, code := runCLI(t, "import", "--db", db, "--from", "weewx", file); code != 0 {
		t.Fatalf("first import: exit %d %s", code, errOut)
	}
	_, errOut, code := runCLI(t, "import", "--db", db, "--from", "weewx", file)
	if code == 0 || !strings.Contains(errOut, "Station outdoor already has Rain") || !strings.Contains(errOut, "--zone rain=") {
		t.Errorf("second import: exit %d %s", code, errOut)
	}
	out, errOut, code := runCLI(t, "import", "--db", db, "--from", "weewx", "--zone", "rain=", file)
	var imported, leftOut int
	if m := regexp.MustCompile(`imported (\d+) readings?`).FindStringSubmatch(out); m != nil {
		imported, _ = strconv.Atoi(m[1])
	}
	if m := regexp.MustCompile(`left out (\d+) readings? older than the raw retention`).FindStringSubmatch(out); m != nil {
		leftOut, _ = strconv.Atoi(m[1])
	}
	if code != 0 || imported+leftOut != 6929 {
		t.Errorf("import without the rain: exit %d, %d imported and %d left out, want 6929 in all: %s%s", code, imported, leftOut, out, errOut)
	}
}

// TestWeewxImportBesideRunningHub: a database another climated writes
// (its lock held) is left alone, with what to do.
func TestWeewxImportBesideRunningHub(t *testing.T) {
	db := filepath.Join(t.TempDir(), "h.db")
	s, err := history.Open(context.Background(), db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(context.Background())
	file := filepath.Join(testutil.Root(t), "testdata", "weewx", "metricwx-wview.sdb")
	_, errOut, code := runCLI(t, "import", "--db", db, "--from", "weewx", file)
	if code == 0 || !strings.Contains(errOut, "in use by a running hub") || !strings.Contains(errOut, "stop the hub first") {
		t.Errorf("exit %d %s", code, errOut)
	}
}

// TestWeewxDryRun: --dry-run names where each column goes, how many
// readings and their first and last time, the broken records and the
// columns left out, and writes nothing; --zone names zones by part or
// column and leaves a column out with an empty zone.
func TestWeewxDryRun(t *testing.T) {
	file := weewxCopy(t, "us-extended.sdb",
		"UPDATE archive SET extraTemp1 = outTemp - 10, soilMoist2 = 30 WHERE dateTime >= 1269500000",
		"UPDATE archive SET UV = 99 WHERE dateTime = 1267518600")
	db := filepath.Join(t.TempDir(), "h.db")
	cfg := filepath.Join(t.TempDir(), "c.yaml")
	os.WriteFile(cfg, []byte("timezone: America/Los_Angeles\n"), 0o600)
	out, errOut, code := runCLI(t, "import", "--config", cfg, "--db", db, "--from", "weewx", "--dry-run",
		"--zone", "outdoor=Garden", "--zone", "extraTemp1=Cellar", "--zone", "pressure=", file)
	if code != 0 {
		t.Fatalf("exit %d %s%s", code, out, errOut)
	}
	flat := strings.Join(strings.Fields(out), " ")
	for _, want := range []string{
		"dry run, nothing written", "holds 1486 records from 2010-03-01 00:30:00 PST to 2010-04-01 00:00:00 PDT",
		"outTemp Garden Temperature 1465 2010-03-01 00:30:00 PST 2010-04-01 00:00:00 PDT",
		"rain Garden Rain 1486 2010-03-01 00:29:59 PST 2010-03-31 23:59:59 PDT",
		"extraTemp1 Cellar Temperature 332 2010-03-25 00:00:00 PDT", "soilMoist2 Station soil2 SoilMoisture 337",
		"pressure (left out) AbsolutePressure", "barometer Station console Pressure 1465",
		"broken: record 49 (dateTime 1267518600, 2010-03-02T08:30:00Z): UV 99: UV: 99 is outside 0…25",
		"would import 16105 readings (1 broken record)",
		"not imported, no measurement of the hub's (values): ET (1485), altimeter (1401)",
		"nothing to import from: UV, co2, extraHumid1",
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("want %q in\n%s", want, out)
		}
	}
	if _, err := os.Stat(db); err == nil {
		t.Errorf("the dry run made %s", db)
	}
	_, errOut, code = runCLI(t, "import", "--db", db, "--from", "weewx", "--dry-run", "--zone", "extraTemp1=Garden", "--zone", "outTemp=Garden", file)
	if code == 0 || !strings.Contains(errOut, "extraTemp1 and outTemp would both be the Temperature of zone \"Garden\"") {
		t.Errorf("two columns into one series: exit %d %s", code, errOut)
	}
	_, errOut, code = runCLI(t, "import", "--db", db, "--from", "weewx", "--zone", "garden=X", file)
	if code == 0 || !strings.Contains(errOut, "zone for garden: neither a weewx column") {
		t.Errorf("unknown key: exit %d %s", code, errOut)
	}
}

// TestWeewxImportBesideRainOfTheSameDay: an archive that ends on a day
// whose later hours hold rain from elsewhere (another archive, the hub's
// own) is imported: none of that rain falls between the archive's first
// record and its last, however long the archive.
func TestWeewxImportBesideRainOfTheSameDay(t *testing.T) {
	const cut = 1279162800 // 2010-07-15 03:00 UTC
	later := weewxCopy(t, "metricwx-wview.sdb", fmt.Sprintf("DELETE FROM archive WHERE dateTime < %d", cut+3*3600), "UPDATE archive SET rain = 0.2")
	// The earlier archive ends before cut on the same day, and begins 290
	// days before its second day: a span read a day a step.
	earlier := weewxCopy(t, "metricwx-wview.sdb", fmt.Sprintf("DELETE FROM archive WHERE dateTime >= %d", cut),
		fmt.Sprintf("UPDATE archive SET dateTime = dateTime - %d WHERE dateTime < 1278000000", 290*86400))
	db := filepath.Join(t.TempDir(), "h.db")
	if _, errOut, code := runCLI(t, "import", "--db", db, "--from", "weewx", later); code != 0 {
		t.Fatalf("the later archive: exit %d %s", code, errOut)
	}
	if out, errOut, code := runCLI(t, "import", "--db", db, "--from", "weewx", earlier); code != 0 {
		t.Errorf("the earlier archive: exit %d %s%s", code, out, errOut)
	}
}
