package station

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
)

// refusingSink is memSink refusing the next Record with err, keeping
// nothing of it, while err is set.
type refusingSink struct {
	*memSink
	err atomic.Pointer[error]
}

func (s *refusingSink) Record(ctx context.Context, b sensors.Batch) error {
	if err := s.err.Swap(nil); err != nil {
		return *err
	}
	return s.memSink.Record(ctx, b)
}

// TestSourceRainOfAnUnrecordedUpload: the yearly counter at 10, 10.5 and
// 11 in, the sink recording nothing of the second upload (its guard
// refused every reading, answered 200 as retrying would be refused
// again; or it stopped, answered 503): the third counts the rain of both,
// 1 in, from the state the sink holds.
func TestSourceRainOfAnUnrecordedUpload(t *testing.T) {
	for _, tc := range []struct {
		err  error
		code int
	}{
		{fmt.Errorf("3 readings: %w", sensors.ErrNotAdmitted), http.StatusOK},
		{sensors.ErrStopped, http.StatusServiceUnavailable},
	} {
		sink := &refusingSink{memSink: &memSink{states: map[string]string{}}}
		src := NewSource(Config{}, sink.state, sink, slog.New(slog.NewTextHandler(io.Discard, nil)))
		srv := httptest.NewServer(src.Handler())
		now := time.Now().UTC()
		send := func(ago time.Duration, yearly float64) int {
			return post(t, srv.URL, upload(now.Add(-ago).Format("2006-01-02 15:04:05"), yearly))
		}
		send(3*time.Minute, 10)
		sink.err.Store(&tc.err)
		if code := send(2*time.Minute, 10.5); code != tc.code {
			t.Errorf("%v: the upload not recorded answered %d, want %d", tc.err, code, tc.code)
		}
		send(time.Minute, 11)
		if _, mm := sink.sum("Station outdoor", sensors.Rain); math.Abs(mm-25.4) > 1e-6 {
			t.Errorf("%v: rain %.2f mm, want 25.40", tc.err, mm)
		}
		srv.Close()
		src.Close()
	}
}
