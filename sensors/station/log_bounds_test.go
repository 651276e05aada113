package station

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// Adversarial tests (the first hour past the demo): what an unauthenticated sender can make
// the hub log through the station's paths.

func strayServer(t *testing.T, log io.Writer) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	stray := Stray(slog.New(slog.NewTextHandler(log, nil)), true)
	for _, p := range StrayPaths {
		mux.Handle(p, stray)
	}
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func get(t *testing.T, u string) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
}

// TestStrayLogsNoPasskeyFromThePath: an Ambient Weather console set to
// another guide's path without a trailing "?" appends its fields to the
// path (/data/report/&PASSKEY=…&tempf=…, as handler.go's inPath says).
// Stray logged that path whole: the PASSKEY, the station's secret on
// ecowitt.net that the rest of the package only logs hashed.
func TestStrayLogsNoPasskeyFromThePath(t *testing.T) {
	var log syncBuffer
	srv := strayServer(t, &log)
	get(t, srv.URL+"/data/report/&PASSKEY=0123456789ABCDEF0123456789ABCDEF&stationtype=AMBWeatherV4.2.9&tempf=50")
	if out := log.String(); strings.Contains(out, "0123456789ABCDEF") {
		t.Errorf("the stray upload's log line shows the station's PASSKEY:\n%s", out)
	}
}

// TestStrayLogLinesAreShort: a path beneath /data/report/ of tens of
// kilobytes was logged whole, each distinct one its own key: 20 lines a
// minute of 30 KB each from one client.
func TestStrayLogLinesAreShort(t *testing.T) {
	var log syncBuffer
	srv := strayServer(t, &log)
	for i := range 5 {
		get(t, fmt.Sprintf("%s/data/report/%d%s", srv.URL, i, strings.Repeat("x", 30000)))
	}
	if out := log.String(); len(out) > 5*1024 {
		t.Errorf("5 stray uploads with long paths logged %d bytes", len(out))
	}
}

// TestStrayLogIsNotForged holds: a newline or an escape sequence in the
// path is quoted, so a stray upload cannot forge a line of the log or
// colour a terminal, and many distinct paths give at most the ceiling.
func TestStrayLogIsNotForged(t *testing.T) {
	var log syncBuffer
	srv := strayServer(t, &log)
	get(t, srv.URL+"/data/report/x%0Atime=2024-01-01T00:00:00Z%20level=ERROR%20msg=forged%1B%5B31m")
	for i := range 100 {
		get(t, fmt.Sprintf("%s/data/report/p%d", srv.URL, i))
	}
	out := log.String()
	if strings.Contains(out, "\nlevel=ERROR") || strings.Contains(out, "\ntime=2024") || strings.Contains(out, "\x1b") {
		t.Errorf("a stray path forged a log line or an escape:\n%s", out)
	}
	if n := strings.Count(out, "\n"); n > 21 {
		t.Errorf("%d lines from 101 stray uploads in a second", n)
	}
}

// TestUnknownFieldsDoNotSilenceProblems: each unknown field took one of
// the field log's 20 lines a day over all keys, so a station (or anyone
// with the path) sending 20 made-up fields once silenced, for hours, the
// log line of a real problem of a field that follows.
func TestUnknownFieldsDoNotSilenceProblems(t *testing.T) {
	var log syncBuffer
	sink := &memSink{states: map[string]string{}}
	srv, stop := runningLog(t, Config{}, sink, &log)
	defer stop()
	form := url.Values{"PASSKEY": {"K"}, "tempf": {"50"}}
	for i := range 25 {
		form.Set(fmt.Sprintf("made_up_%02d", i), "1")
	}
	if code := post(t, srv.URL, form); code != 200 {
		t.Fatalf("upload: %d", code)
	}
	if code := post(t, srv.URL, url.Values{"PASSKEY": {"K"}, "tempf": {"warm"}}); code != 200 {
		t.Fatalf("upload: %d", code)
	}
	if out := log.String(); !strings.Contains(out, "field=tempf") {
		t.Errorf("the problem of tempf=warm is not logged after an upload of 25 unknown fields:\n%.3000s", out)
	}
}

// TestUnknownFieldLineIsShort: a Weather Underground GET carries its
// fields in the URL, up to the server's header limit (64 KB in the hub),
// not MaxBody: a field name of 20 KB, a model (softwaretype) and a
// value that cannot be read of 10 KB each were logged whole.
func TestUnknownFieldLineIsShort(t *testing.T) {
	var log syncBuffer
	sink := &memSink{states: map[string]string{}}
	srv, stop := runningLog(t, Config{}, sink, &log)
	defer stop()
	long := func(c string, n int) string { return strings.Repeat(c, n) }
	get(t, srv.URL+"/?ID=KSTATION1&softwaretype="+long("m", 10000)+"&tempf="+long("w", 10000)+"&"+long("n", 20000)+"=1")
	if out := log.String(); len(out) > 8*1024 {
		t.Errorf("an upload with a long field name, model and value logged %d bytes", len(out))
	}
}
