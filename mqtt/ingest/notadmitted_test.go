package ingest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"testing"

	"github.com/climated/climated/sensors"
)

// errSink answers every Record with err.
type errSink struct{ err error }

func (s errSink) Record(context.Context, sensors.Batch) error { return s.err }
func (errSink) Report(sensors.Status)                         {}
func (errSink) Flush(context.Context) error                   { return nil }

// TestBatchNotAdmittedIsTaken: a batch the sink's guards refused whole
// (sensors.ErrNotAdmitted, the hub's clock guard, which logs why) is
// taken, its messages acknowledged as before, and is neither a sink
// error nor logged again; a sink's failure still is both.
func TestBatchNotAdmittedIsTaken(t *testing.T) {
	b := sensors.Batch{Readings: []sensors.Reading{{Zone: "Hall", Measurement: sensors.Temperature, Value: 20}}}
	for _, tc := range []struct {
		err        error
		sinkErrors uint64
	}{
		{fmt.Errorf("1 readings: %w", sensors.ErrNotAdmitted), 0},
		{errors.New("the sink's trouble"), 1},
	} {
		var logs bytes.Buffer
		in, err := New(nil, nil, &Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
		if err != nil {
			t.Fatal(err)
		}
		taken, err := in.record(context.Background(), errSink{tc.err}, b)
		st := in.Stats()
		if !taken || err != nil || st.SinkErrors != tc.sinkErrors || st.Readings != 0 || (logs.Len() > 0) != (tc.sinkErrors > 0) {
			t.Errorf("%v: taken %v, %v, %d sink errors, %d readings; logged:\n%s", tc.err, taken, err, st.SinkErrors, st.Readings, logs.String())
		}
	}
}
