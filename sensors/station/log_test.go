package station

import (
	"bytes"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// syncBuffer is a log a handler and the test share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestSourceLogsFirstUploadAndUnknownFields: a station's first upload is
// logged with the zones it brought, later ones not; a field the decoder
// does not know is logged once per station, and the PASSKEY never.
func TestSourceLogsFirstUploadAndUnknownFields(t *testing.T) {
	var log syncBuffer
	sink := &memSink{states: map[string]string{}}
	srv, stop := runningLog(t, Config{Zones: map[string]string{"outdoor": "Garden"}}, sink, &log)
	defer stop()
	form := url.Values{"PASSKEY": {"SECRETKEY123"}, "model": {"GW2000A"}, "tempf": {"50"}, "humidity": {"60"}, "wn99_flux": {"3"}}
	for range 3 {
		if code := post(t, srv.URL, form); code != 200 {
			t.Fatalf("upload: %d", code)
		}
	}
	out := log.String()
	if n := strings.Count(out, `msg="station: first upload" station=`+stationID("SECRETKEY123")); n != 1 {
		t.Errorf("%d lines of a first upload, want 1:\n%s", n, out)
	}
	if !strings.Contains(out, "Garden: Humidity Temperature") || !strings.Contains(out, "model=GW2000A") {
		t.Errorf("the first upload's line does not say what it brought:\n%s", out)
	}
	if n := strings.Count(out, "wn99_flux"); n != 1 {
		t.Errorf("the unknown field named %d times, want once:\n%s", n, out)
	}
	if strings.Contains(out, "SECRETKEY123") {
		t.Errorf("the log shows the PASSKEY:\n%s", out)
	}
}
