package sensors

import (
	"math"
	"strings"
	"testing"
	"time"
)

func TestReadingValidate(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	ok := Reading{Zone: "Indoor", Measurement: Temperature, Value: 21.5, Time: now, Source: "i2c1/0x76"}
	cases := []struct {
		name string
		edit func(*Reading)
		want string // "" means valid
	}{
		{"valid", func(*Reading) {}, ""},
		{"lowest valid", func(r *Reading) { r.Value = -60 }, ""},
		{"empty zone", func(r *Reading) { r.Zone = "" }, `reading from "i2c1/0x76": zone "": empty`},
		{"zone not UTF-8", func(r *Reading) { r.Zone = "K\xfcche" }, `zone "K\xfcche": not UTF-8`},
		{"zone with a newline", func(r *Reading) { r.Zone = "Bed\nroom" }, `zone "Bed\nroom": contains control characters`},
		{"source not UTF-8", func(r *Reading) { r.Source = "csv/K\xfcche" }, `reading from "csv/K\xfcche": the source's name is not UTF-8`},
		{"zone too long", func(r *Reading) { r.Zone = strings.Repeat("Garden", 1000) }, `…(6000 bytes): longer than 64 characters`},
		{"no time", func(r *Reading) { r.Time = time.Time{} }, "Indoor/Temperature from \"i2c1/0x76\": no time"},
		{"unknown measurement", func(r *Reading) { r.Measurement = "Radon" }, `unknown measurement "Radon"`},
		{"NaN", func(r *Reading) { r.Value = math.NaN() }, "Temperature: value is not a number"},
		{"too hot", func(r *Reading) { r.Value = 120 }, "Temperature: 120 °C is outside -60…85"},
		{"humidity over 100", func(r *Reading) { r.Measurement, r.Value = Humidity, 101 }, "Humidity: 101 % is outside 0…100"},
		{"negative rain", func(r *Reading) { r.Measurement, r.Value = Rain, -0.2 }, "Rain: -0.2 mm is outside"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := ok
			c.edit(&r)
			err := r.Validate()
			switch {
			case c.want == "" && err != nil:
				t.Errorf("unexpected error: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Errorf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}

func TestRound(t *testing.T) {
	for _, c := range []struct {
		m     Measurement
		v     float64
		extra int
		want  float64
	}{
		{Temperature, 21.449, 0, 21.4},
		{Temperature, 21.45, 1, 21.45},
		{CO2, 612.5, 0, 613},
		{CO2, 612.46, 1, 612.5},
		{Temperature, -0.04, 0, 0}, // never -0
		{Rain, 0.2794, 0, 0.279},   // one tip of the usual gauge, not 0.3
		{Rain, 0.8382, 0, 0.838},   // three tips, not 0.8
		{Rain, 0.2794, 1, 0.279},   // no extra decimal for amounts
		{Rain, 0.101, 0, 0.101},    // a step of Netatmo's gauge
	} {
		got := c.m.Round(c.v, c.extra)
		if got != c.want || math.Signbit(got) != math.Signbit(c.want) {
			t.Errorf("%s.Round(%v, %d) = %v, want %v", c.m, c.v, c.extra, got, c.want)
		}
	}
}
