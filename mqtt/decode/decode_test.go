package decode

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/climated/climated/sensors"
)

// A recorded message is a file in testdata/<format>/: the topic on the
// first line, the payload exactly as published after it.
func loadMsg(t testing.TB, path string) (topic string, payload []byte) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	head, body, ok := bytes.Cut(data, []byte("\n"))
	if !ok {
		t.Fatalf("%s: want the topic on the first line, then the payload", path)
	}
	return string(head), body
}

// want is what a recorded message must decode to. Values are compared to
// within 0.01; rain is the cumulative counter, if any.
type want struct {
	file     string
	device   string
	values   map[sensors.Measurement]float64
	rain     float64
	avail    Availability
	ignored  bool
	err      bool
	problems int
	// probes are the values of the device's further probes (not Main).
	probes map[string]map[sensors.Measurement]float64
}

func checkCases(t *testing.T, format string, fields []Field, cases []want) {
	t.Helper()
	dec, err := New(format, fields)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join("testdata", format, "*.msg"))
	seen := map[string]bool{}
	for _, c := range cases {
		seen[filepath.Join("testdata", format, c.file+".msg")] = true
		t.Run(c.file, func(t *testing.T) {
			topic, payload := loadMsg(t, filepath.Join("testdata", format, c.file+".msg"))
			checkResult(t, dec.Decode(topic, payload), c)
		})
	}
	if fields == nil {
		for _, f := range files {
			if !seen[f] {
				t.Errorf("%s has no expected result", f)
			}
		}
	}
}

func checkResult(t *testing.T, r Result, c want) {
	t.Helper()
	if (r.Err != nil) != c.err {
		t.Fatalf("Err = %v, want error: %v", r.Err, c.err)
	}
	if r.Ignored != c.ignored {
		t.Errorf("Ignored = %v, want %v", r.Ignored, c.ignored)
	}
	if !c.ignored && r.Device != c.device {
		t.Errorf("Device = %q, want %q", r.Device, c.device)
	}
	if r.Availability != c.avail {
		t.Errorf("Availability = %v, want %v", r.Availability, c.avail)
	}
	if len(r.Problems) != c.problems {
		t.Errorf("%d problems %v, want %d", len(r.Problems), r.Problems, c.problems)
	}
	got := map[sensors.Measurement]float64{}
	var rain float64
	probes := map[string]map[sensors.Measurement]float64{}
	for _, v := range r.Values {
		if !v.Since.IsZero() {
			continue // an amount log's entry: TestClimatedAmounts
		}
		if v.Counter {
			rain = v.Value
			continue
		}
		if v.Probe != "" && !v.Main {
			if probes[v.Probe] == nil {
				probes[v.Probe] = map[sensors.Measurement]float64{}
			}
			probes[v.Probe][v.Measurement] = v.Value
			continue
		}
		if _, dup := got[v.Measurement]; dup {
			t.Errorf("%s given twice", v.Measurement)
		}
		got[v.Measurement] = v.Value
	}
	for m, w := range c.values {
		if g, ok := got[m]; !ok || math.Abs(g-w) > 0.01 {
			t.Errorf("%s = %v (present %v), want %v", m, g, ok, w)
		}
	}
	for m, g := range got {
		if _, ok := c.values[m]; !ok {
			t.Errorf("unexpected %s = %v", m, g)
		}
	}
	for p, ws := range c.probes {
		for m, w := range ws {
			if g, ok := probes[p][m]; !ok || math.Abs(g-w) > 0.01 {
				t.Errorf("probe %s: %s = %v (present %v), want %v", p, m, g, ok, w)
			}
		}
	}
	for p, gs := range probes {
		for m, g := range gs {
			if _, ok := c.probes[p][m]; !ok {
				t.Errorf("unexpected probe %s: %s = %v", p, m, g)
			}
		}
	}
	if math.Abs(rain-c.rain) > 0.01 {
		t.Errorf("rain counter = %v, want %v", rain, c.rain)
	}
}

// fuzzFormat seeds f with the format's recorded messages and checks what
// every decoder promises: no panic, no value outside the catalogue, no
// value from a payload it calls unusable.
func fuzzFormat(f *testing.F, format string, fields []Field) {
	dec, err := New(format, fields)
	if err != nil {
		f.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join("testdata", format, "*.msg"))
	for _, file := range files {
		topic, payload := loadMsg(f, file)
		f.Add(topic, payload)
	}
	f.Add("a/b/c", []byte(`{"x":[1,{"y":NaN}]}`))
	f.Add("", []byte{})
	f.Fuzz(func(t *testing.T, topic string, payload []byte) {
		r := dec.Decode(topic, payload)
		if r.Err != nil && len(r.Values) > 0 {
			t.Errorf("unusable payload gave values %v", r.Values)
		}
		for _, v := range r.Values {
			if math.IsNaN(v.Value) || math.IsInf(v.Value, 0) {
				t.Errorf("%s: %v is not finite", v.Measurement, v.Value)
			}
			if v.Counter {
				if v.Measurement != sensors.Rain || v.Value < 0 {
					t.Errorf("bad counter %+v", v)
				}
				continue
			}
			if err := v.Measurement.Check(v.Value); err != nil {
				t.Errorf("value outside the catalogue: %v", err)
			}
		}
		for _, p := range r.Problems {
			if p == nil || strings.TrimSpace(p.Error()) == "" {
				t.Error("a problem without a message")
			}
		}
	})
}

func TestNewRejects(t *testing.T) {
	cases := []struct {
		format string
		fields []Field
		want   string
	}{
		{"homie", nil, `unknown format "homie"`},
		{Generic, nil, "needs at least one entry in fields"},
		{Generic, []Field{{Measurement: "Radon"}}, `fields[0]: measurement "Radon": not one of`},
		{Generic, []Field{{Measurement: sensors.Temperature, Unit: "furlong"}}, `fields[0]: unit: unknown unit "furlong" for Temperature`},
		{Generic, []Field{{Measurement: sensors.Temperature, Counter: true}}, "only Rain can be a counter"},
		{Generic, []Field{{Measurement: sensors.Rain, Path: "a..b"}}, `path "a..b": empty segment`},
		{Tasmota, []Field{{Measurement: sensors.Temperature, Unit: "F"}}, "fields[0]: path: missing; format tasmota"},
	}
	for _, c := range cases {
		_, err := New(c.format, c.fields)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("New(%q, %v) = %v, want an error containing %q", c.format, c.fields, err, c.want)
		}
	}
	for _, f := range Formats() {
		if f == Generic {
			continue
		}
		if d, err := New(f, nil); err != nil || d.Format() != f {
			t.Errorf("New(%q) = %v, %v", f, d, err)
		}
	}
}

func TestExcerpt(t *testing.T) {
	cases := []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"0123456789abc", 10, "0123456789…"},
		{"line\nbreak\x00", 20, "line·break·"},
		{"grüße", 3, "gr…"},
		{"\xff\xfe valid after", 40, "·· valid after"},
	}
	for _, c := range cases {
		if got := Excerpt([]byte(c.in), c.n); got != c.want {
			t.Errorf("Excerpt(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}
