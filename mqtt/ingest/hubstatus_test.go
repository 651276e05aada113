package ingest

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Another hub going offline (its clean stop or its last will on
// <prefix>/status) marks the zones it fed with an error at once; online
// clears it.
func TestHubOfflineMarksItsZones(t *testing.T) {
	state, err := os.ReadFile(filepath.Join("..", "decode", "testdata", "climated", "bedroom.msg"))
	if err != nil {
		t.Fatal(err)
	}
	topic, payload, _ := bytes.Cut(state, []byte("\n"))
	in := newTestIngest(t, Options{},
		Mapping{Topic: "climated/hub-a/#", Format: "climated"},
		Mapping{Topic: "climated/hub-b/#", Format: "climated"})
	sink := &recSink{}
	feed(t, in, sink, msg(string(topic), string(payload)),
		msg("climated/hub-b/attic/state", `{"zone":"Attic","Temperature":14.5,"When":1796036400}`),
		msg("climated/hub-a/status", "offline"))
	bedroom := sink.statuses["mqtt/climated/Bedroom"].Err
	if !errors.Is(bedroom, errOffline) || !strings.Contains(bedroom.Error(), "hub climated/hub-a") {
		t.Errorf("Bedroom's status error %v, want hub climated/hub-a offline", bedroom)
	}
	if err := sink.statuses["mqtt/climated/Attic"].Err; err != nil {
		t.Errorf("Attic, fed by another hub, has error %v", err)
	}
	feed(t, in, sink, msg("climated/hub-a/status", "online"))
	if err := sink.statuses["mqtt/climated/Bedroom"].Err; err != nil {
		t.Errorf("Bedroom's status error %v after the hub came back", err)
	}
}
