package mcp

import (
	"log/slog"
	"reflect"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/mcp/transport"
)

// TestTransportOptionsCarried: each of the transports' settings in Options
// reaches them as set, each field its own value (transportOptions), the
// clock and the loggers with them.
func TestTransportOptionsCarried(t *testing.T) {
	var opts Options
	set := reflect.ValueOf(&opts).Elem()
	fields := reflect.TypeOf(transport.Options{})
	for i := range fields.NumField() {
		f := fields.Field(i)
		switch f.Type.Kind() {
		case reflect.Int, reflect.Int64: // counts, bytes and durations
			set.FieldByName(f.Name).SetInt(int64(1000 + i))
		case reflect.Func, reflect.Pointer: // the clock and the loggers, below
		default:
			t.Fatalf("transport.Options.%s: a %s, which this test does not set", f.Name, f.Type)
		}
	}
	at := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	opts.Now = testutil.FixedClock(at)
	s := &Server{opts: opts, log: slog.New(slog.DiscardHandler), sdkLog: slog.New(slog.DiscardHandler)}
	got := s.transportOptions()
	carried := reflect.ValueOf(got).Elem()
	for i := range fields.NumField() {
		f := fields.Field(i)
		if k := f.Type.Kind(); k == reflect.Int || k == reflect.Int64 {
			if g, w := carried.Field(i).Int(), set.FieldByName(f.Name).Int(); g != w {
				t.Errorf("transport.Options.%s = %d, want Options.%s, %d", f.Name, g, f.Name, w)
			}
		}
	}
	if got.Now == nil || !got.Now().Equal(at) || got.Logger != s.log || got.SDKLogger != s.sdkLog {
		t.Errorf("the clock or a logger is not the server's: %+v", got)
	}
}
