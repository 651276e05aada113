package history

import (
	"bytes"
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
)

// tzifRule is TZif data (version 2) for a zone given by a POSIX TZ rule
// alone, as the tz database's files give the years after their last
// listed transition: one time type and the rule in the footer.
func tzifRule(stdName string, stdOffset int32, rule string) []byte {
	var b bytes.Buffer
	header := func() {
		b.WriteString("TZif2")
		b.Write(make([]byte, 15))
		// isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt
		for _, n := range []uint32{0, 0, 0, 0, 1, uint32(len(stdName) + 1)} {
			binary.Write(&b, binary.BigEndian, n)
		}
	}
	body := func() {
		binary.Write(&b, binary.BigEndian, stdOffset)
		b.Write([]byte{0, 0}) // not DST, abbreviation at 0
		b.WriteString(stdName + "\x00")
	}
	header()
	body()
	header()
	body()
	b.WriteString("\n" + rule + "\n")
	return b.Bytes()
}

// TestKeptDaysFollowAChangedSummerTimeRule: the kept days are kept in the
// hub's time zone, and a zone whose rules changed is another zone for
// them (dayZoneKey), so that each kept day is the local day as the new
// rules make it. Tried: a month of readings kept in Europe/Berlin with
// summer time ending on the last Sunday of October, then the hub
// restarted with Europe/Berlin ending it on the third Sunday (a tzdata
// update moving the end of summer time, as the United States' moved in
// 2007; 2026-10-18 is then a day of 25 hours); and a hub on "Local"
// whose machine's zone was Australia/Melbourne, then Australia/Sydney
// (an SD card moved to another Pi; the tz database's own files), over
// March 1995, when Sydney's summer time ended two weeks before
// Melbourne's. A hole: dayZoneKey hashes the offsets on the 1st of
// January, April, July and October only, which both of each pair share
// from 1990 to 2060, and the name, which is the same: the key is the same
// and the days kept under the old rules stay. 2026-10-18 (1995-03-05)
// starts at the same instant under both, so its old 24-hour row answers
// for the 25-hour day and misses its last hour of readings for ever.
func TestKeptDaysFollowAChangedSummerTimeRule(t *testing.T) {
	type pair struct {
		name     string
		old, new *time.Location
		start    time.Time // the first of 20 days of readings, UTC
		day      string    // of 25 hours under new, 24 under old
	}
	var cases []pair
	oldRule, err := time.LoadLocationFromTZData("Europe/Berlin", tzifRule("CET", 3600, "CET-1CEST,M3.5.0,M10.5.0/3"))
	if err != nil {
		t.Fatal(err)
	}
	newRule, err := time.LoadLocationFromTZData("Europe/Berlin", tzifRule("CET", 3600, "CET-1CEST,M3.5.0,M10.3.0/3"))
	if err != nil {
		t.Fatal(err)
	}
	cases = append(cases, pair{"Europe/Berlin's rule", oldRule, newRule, time.Date(2026, 10, 10, 0, 0, 0, 0, time.UTC), "2026-10-18"})
	melbourne, errM := os.ReadFile("/usr/share/zoneinfo/Australia/Melbourne")
	sydney, errS := os.ReadFile("/usr/share/zoneinfo/Australia/Sydney")
	if errM == nil && errS == nil {
		old, err := time.LoadLocationFromTZData("Local", melbourne)
		if err != nil {
			t.Fatal(err)
		}
		now, err := time.LoadLocationFromTZData("Local", sydney)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, pair{"Local, Melbourne then Sydney", old, now, time.Date(1995, 2, 25, 0, 0, 0, 0, time.UTC), "1995-03-05"})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if dayZoneKey(c.old) != dayZoneKey(c.new) {
				t.Skip("the keys differ")
			}
			day, err := time.ParseInLocation(time.DateOnly, c.day, c.new)
			if err != nil {
				t.Fatal(err)
			}
			if d := nextMidnight(day, c.new).Sub(day); d != 25*time.Hour {
				t.Fatalf("%s under the new rules lasts %s; want 25h", c.day, d)
			}
			now := c.start.Add(24 * 24 * time.Hour)
			path := filepath.Join(t.TempDir(), "h.db")
			ctx := context.Background()

			s := openTest(t, path, &Options{Now: testutil.FixedClock(now), Location: c.old})
			s.w.days.paused.Store(true)
			if err := s.Record(ctx, sensors.Batch{Readings: keepHouse(c.start)}); err != nil {
				t.Fatal(err)
			}
			if err := s.Record(ctx, sensors.Batch{Readings: keepHouse(c.start.Add(10 * 24 * time.Hour))}); err != nil {
				t.Fatal(err)
			}
			compactNow(t, s)
			if _, err := s.keepDays(ctx, s.wdb, time.Hour); err != nil {
				t.Fatal(err)
			}
			s.Close(ctx)

			s = openTest(t, path, &Options{Now: testutil.FixedClock(now), Location: c.new})
			if _, err := s.keepDays(ctx, s.wdb, time.Hour); err != nil {
				t.Fatal(err)
			}
			from, to := day.AddDate(0, 0, -1), day.AddDate(0, 0, 2)
			got := dailyJSON(t, s, "Living", from, to)
			// What the readings give under the new rules, nothing kept.
			if _, err := s.wdb.ExecContext(ctx, "DELETE FROM day_summary"); err != nil {
				t.Fatal(err)
			}
			want := dailyJSON(t, s, "Living", from, to)
			if got != want {
				t.Errorf("the Living around %s under the new rules, as kept:\n%s\nsummarised from the readings:\n%s", c.day, got, want)
			}
		})
	}
}
