package ingest

import (
	"fmt"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/mqtt/internal/mqtttest"
)

// Another hub whose clock is set a year ahead: a state whose When is that
// far ahead is refused whole; a value whose own time is, is dropped and
// the rest taken. Before, the year-ahead temperature became the zone's
// latest and When, and the live window, measured from it, dropped every
// real reading.
func TestStatesFromAClockAheadAreRefused(t *testing.T) {
	srv, broker := mqtttest.StartMochi(t)
	b := startHub(t, broker, "climated/b", "climated/a")
	mqtttest.WaitSubscribed(t, srv, "climated/a/x/state")
	dev := testutil.MQTTClient(t, broker, "")
	now := time.Now().Truncate(time.Second)
	ahead := now.Add(365 * 24 * time.Hour).Unix()

	mqtttest.Publish(t, dev, "climated/a/attic/state", 1, false, fmt.Sprintf(`{"zone":"Attic","Temperature":30,"When":%d}`, ahead))
	mqtttest.Publish(t, dev, "climated/a/garden/state", 1, false, fmt.Sprintf(
		`{"zone":"Garden","Temperature":6.1,"Humidity":80,"When":%d,"times":{"Temperature":%d,"Humidity":%d}}`,
		now.Unix(), ahead, now.Add(-time.Minute).Unix()))
	testutil.WaitFor(t, "Garden Humidity", func() bool { return keyOf(b.store, "Garden", "Humidity") == 80.0 })
	if got := keyOf(b.store, "Garden", "Temperature"); got != nil {
		t.Errorf("Garden Temperature = %v, taken from a time a year ahead", got)
	}
	if got := keyOf(b.store, "Garden", "When"); got != now.Add(-time.Minute).Unix() {
		t.Errorf("Garden When = %v, want the humidity's %d", got, now.Add(-time.Minute).Unix())
	}
	testutil.WaitFor(t, "the Attic state counted as bad", func() bool { return b.ingest.Stats().BadPayload == 1 })
	if _, ok := b.store.Snapshot().Climate["Attic"]; ok {
		t.Errorf("Attic has readings from a When a year ahead")
	}
	if st := b.ingest.Stats(); st.BadValues != 1 {
		t.Errorf("%d bad values, want 1 (Garden's Temperature)", st.BadValues)
	}
}
