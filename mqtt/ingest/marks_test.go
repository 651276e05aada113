package ingest

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/history"
	"github.com/climated/climated/mqtt"
	"github.com/climated/climated/sensors"
)

// A hub killed after the history committed a batch but before the journal
// said so: the broker delivers the batch's messages again and the journal
// cannot tell whether they were recorded. The history can: the batch's
// mark commits with its readings. Run against a real history, a message
// whose batch was committed is not recorded again (its rain is not
// counted twice, as it was before marks), one whose batch was not is
// recorded at its first arrival's time, and the journal learns the
// commit.
func TestRedeliveryAfterCrashAsksTheHistory(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "climated.db.mqtt")
	store, err := openStoreAt(filepath.Join(dir, "climated.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close(context.Background())
	rig := newRedeliveryRig(t, path, store.Marked)
	message := rig.message
	run := func(now time.Time, msgs ...mqtt.Message) { t.Helper(); rig.run(now, store, msgs...) }
	t1 := time.Now().Add(-time.Hour).Truncate(time.Second)
	run(t1, message(1, "sensors/committed", false))
	// The kill: the journal lost its commit line; and a batch of another
	// message was journalled but never reached the history.
	b, _ := os.ReadFile(path)
	commitLine := regexp.MustCompile(`(?m)^c \d+\n`)
	if !commitLine.Match(b) {
		t.Fatalf("no commit in the journal:\n%s", b)
	}
	os.WriteFile(path, commitLine.ReplaceAll(b, nil), 0o600)
	sess, _ := journalAt(path)
	lost := mqtt.MessageKey(message(2, "sensors/lost", true))
	sess.Hold(lost, t1)
	if _, err := sess.Begin([]mqtt.DeliveryKey{lost}); err != nil {
		t.Fatal(err)
	}

	t2 := t1.Add(10 * time.Minute)
	run(t2, message(1, "sensors/committed", true), message(2, "sensors/lost", true), message(3, "sensors/new", false))
	if err := store.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	for zone, want := range map[string]struct {
		at   time.Time
		rain float64
	}{"sensors/committed": {t1, 0.4}, "sensors/lost": {t1, 0.4}, "sensors/new": {t2, 0.4}} {
		got, err := store.Range(context.Background(), history.Query{Zone: zone, Measurement: sensors.Rain, From: t1.Add(-time.Minute), To: t2.Add(time.Minute)})
		if err != nil || got.Summary == nil || got.Summary.Sum == nil {
			t.Fatalf("%s: %v %+v", zone, err, got)
		}
		if s := got.Summary; *s.Sum != want.rain || s.Count != 1 || s.MaxTime != want.at.Unix() {
			t.Errorf("%s: rain %.1f mm in %d readings at %d, want %.1f mm once at %d", zone, *s.Sum, s.Count, s.MaxTime, want.rain, want.at.Unix())
		}
	}
	b, _ = os.ReadFile(path)
	// Batch 1 was sensors/committed's in the first run.
	if !strings.Contains(string(b), "\nc 1\n") {
		t.Errorf("the journal does not say that batch 1 is committed:\n%s", b)
	}
}
