package remotewrite

import (
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/golang/snappy"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/climated/climated/history"
	"github.com/climated/climated/sensors"
)

// openHistory is a real history in a temporary file, closed at the end.
func openHistory(t *testing.T) *history.Store {
	t.Helper()
	st, err := history.Open(context.Background(), filepath.Join(t.TempDir(), "h.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close(context.Background()) })
	return st
}

// record commits rs to st.
func record(t *testing.T, st *history.Store, rs ...sensors.Reading) {
	t.Helper()
	if err := st.Record(context.Background(), sensors.Batch{Readings: rs}); err != nil {
		t.Fatal(err)
	}
	if err := st.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// minutes are n minutes of a temperature and a rain amount in zone from
// base.
func minutes(base time.Time, n int) []sensors.Reading {
	var rs []sensors.Reading
	for i := range n {
		at := base.Add(time.Duration(i) * time.Minute)
		rs = append(rs, sensors.Reading{Zone: "Cabin", Measurement: sensors.Temperature, Value: 20 + float64(i)/10, Time: at, Source: "test"},
			sensors.Reading{Zone: "Cabin", Measurement: sensors.Rain, Value: 0.2, Time: at, Source: "test"})
	}
	return rs
}

// decoded is a WriteRequest read back field by field.
type decoded map[string][]sample // series (its labels, sorted, as name=value,…) → samples

// decode reads a snappy-compressed WriteRequest, failing the test on
// anything the protocol does not allow.
func decode(t *testing.T, body []byte) decoded {
	t.Helper()
	raw, err := snappy.Decode(nil, body)
	if err != nil {
		t.Fatalf("snappy: %v", err)
	}
	out := decoded{}
	for len(raw) > 0 {
		num, typ, n := protowire.ConsumeTag(raw)
		if num != 1 || typ != protowire.BytesType {
			t.Fatalf("WriteRequest field %d type %d", num, typ)
		}
		raw = raw[n:]
		ts, n := protowire.ConsumeBytes(raw)
		if n < 0 {
			t.Fatal("truncated TimeSeries")
		}
		raw = raw[n:]
		key, ss := decodeSeries(t, ts)
		out[key] = append(out[key], ss...)
	}
	return out
}

func decodeSeries(t *testing.T, b []byte) (string, []sample) {
	t.Helper()
	key, last := "", ""
	var ss []sample
	for len(b) > 0 {
		num, _, n := protowire.ConsumeTag(b)
		b = b[n:]
		msg, n := protowire.ConsumeBytes(b)
		b = b[n:]
		f := fields(t, msg)
		switch num {
		case 1:
			name := string(f[1])
			if name <= last {
				t.Fatalf("label %q after %q: not sorted", name, last)
			}
			last = name
			key += fmt.Sprintf("%s=%s,", name, f[2])
		case 2:
			v, _ := protowire.ConsumeFixed64(f[1])
			ms, _ := protowire.ConsumeVarint(f[2])
			ss = append(ss, sample{value: math.Float64frombits(v), ms: int64(ms)})
		default:
			t.Fatalf("TimeSeries field %d", num)
		}
	}
	return key, ss
}

// fields are a message's fields by number, each as its bytes (a varint's
// or fixed64's encoding, or a string's content).
func fields(t *testing.T, b []byte) map[protowire.Number][]byte {
	t.Helper()
	out := map[protowire.Number][]byte{}
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		b = b[n:]
		var m int
		switch typ {
		case protowire.BytesType:
			var v []byte
			v, m = protowire.ConsumeBytes(b)
			out[num] = v
		default:
			m = protowire.ConsumeFieldValue(num, typ, b)
			out[num] = b[:m]
		}
		if m < 0 {
			t.Fatalf("field %d: bad encoding", num)
		}
		b = b[m:]
	}
	return out
}

// behind415 serves h behind a proxy that answers its first n requests
// 415 Unsupported Media Type (a misrouted request, a gateway restarting).
func behind415(t *testing.T, h http.Handler, n int) *httptest.Server {
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		refuse := n > 0
		n--
		mu.Unlock()
		if refuse {
			io.Copy(io.Discard, r.Body)
			w.WriteHeader(http.StatusUnsupportedMediaType)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}
