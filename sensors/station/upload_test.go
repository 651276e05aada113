package station

import (
	"math"
	"net/url"
	"path/filepath"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
)

// The published unit definitions (NIST SP 811, appendix B), written here
// apart from the decoder's own constants.
const (
	paPerInHg = 3386.389 // inch of mercury, 32 °F
	mPerInch  = 0.0254
	msPerMph  = 0.44704
)

func fToC(f float64) float64      { return (f - 32) / 1.8 }
func inHgTohPa(v float64) float64 { return v * paPerInHg / 100 }
func inToMM(v float64) float64    { return v * mPerInch * 1000 }
func mphToKmh(v float64) float64  { return v * msPerMph * 3.6 }

// fixture reads one of ecowitt2mqtt's uploads as the form it was sent as.
func fixture(t *testing.T, name string) url.Values {
	t.Helper()
	return testutil.FormFromJSON(t, filepath.Join("testdata", "ecowitt2mqtt", name))
}

type expect map[string]map[sensors.Measurement]float64

func check(t *testing.T, u *Upload, want expect) {
	t.Helper()
	got := map[string]map[sensors.Measurement]float64{}
	for _, p := range u.Parts {
		got[p.Name] = p.Values
	}
	for part, vals := range want {
		for m, w := range vals {
			g, ok := got[part][m]
			if !ok || math.Abs(g-w) > 1e-3*math.Max(1, math.Abs(w)) {
				t.Errorf("%s %s: %v (present %v), want %v", part, m, g, ok, w)
			}
		}
	}
	if len(u.Problems) > 0 {
		t.Errorf("problems: %v", u.Problems)
	}
}

// TestGW2000AWithChannels: a GW2000A with a WS90, channels 1–8, soil
// moisture, a PM2.5 sensor and the WH45 (CO₂), as its owner's upload.
func TestGW2000AWithChannels(t *testing.T) {
	u, err := Decode(Ecowitt, fixture(t, "payload_gw2000a_2.json"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if u.Model != "GW2000A" || !u.Time.Equal(time.Date(2022, 4, 20, 19, 14, 47, 0, time.UTC)) {
		t.Errorf("model %q, time %v", u.Model, u.Time)
	}
	check(t, u, expect{
		"console": {sensors.Temperature: fToC(72.9), sensors.Humidity: 56, sensors.Pressure: inHgTohPa(29.870), sensors.AbsolutePressure: inHgTohPa(29.509)},
		"outdoor": {sensors.Temperature: fToC(59.7), sensors.Humidity: 65, sensors.WindAngle: 327, sensors.WindStrength: mphToKmh(2.24), sensors.GustStrength: mphToKmh(3.80),
			sensors.SolarRadiation: 0, sensors.UV: 0, sensors.RainRate: 0, sensors.BatteryVoltage: 3220},
		"channel1":  {sensors.Temperature: fToC(71.2), sensors.Humidity: 61, sensors.BatteryPercent: 100},
		"channel8":  {sensors.Temperature: fToC(68.0), sensors.Humidity: 56},
		"soil5":     {sensors.SoilMoisture: 52, sensors.BatteryVoltage: 1300},
		"pm25_1":    {sensors.PM25: 21.0, sensors.BatteryPercent: 60},
		"co2":       {sensors.Temperature: fToC(62.2), sensors.Humidity: 61, sensors.PM25: 4.9, sensors.PM10: 6.1, sensors.CO2: 455},
		"lightning": {sensors.LightningDistance: 1, sensors.BatteryPercent: 60},
	})
	for _, p := range u.Parts {
		if _, ok := p.Values[sensors.BatteryPercent]; ok && p.Name == "co2" {
			t.Errorf("co2_batt 6 (on USB power) gave a level: %v", p.Values)
		}
	}
	wantCounters := []Counter{{"daily", false, false, 0}, {"event", false, false, 0}, {"hourly", false, false, 0}, {"monthly", false, false, inToMM(0.736)},
		{"weekly", false, false, 0}, {"yearly", false, false, inToMM(3.909)},
		{"daily", true, false, inToMM(0.075)}, {"event", true, false, inToMM(0.063)}, {"hourly", true, false, 0}, {"monthly", true, false, inToMM(0.941)},
		{"weekly", true, false, inToMM(0.075)}, {"yearly", true, false, inToMM(4.114)},
		{"daily", false, true, 13}}
	if len(u.Counters) != len(wantCounters) {
		t.Fatalf("counters %+v, want %+v", u.Counters, wantCounters)
	}
	for i, c := range wantCounters {
		g := u.Counters[i]
		if g.Name != c.Name || g.Piezo != c.Piezo || g.Strikes != c.Strikes || math.Abs(g.MM-c.MM) > 1e-9 {
			t.Errorf("counter %d: %+v, want %+v", i, g, c)
		}
	}
}

// TestGW2000AWS90: leak and leaf sensors, an empty lightning_time (no
// strike yet) and a number sent as a JSON number.
func TestGW2000AWS90(t *testing.T) {
	u, err := Decode(Ecowitt, fixture(t, "payload_gw2000a_1.json"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	check(t, u, expect{
		"outdoor":   {sensors.Temperature: fToC(74.5), sensors.WindStrength: mphToKmh(1.34), sensors.BatteryVoltage: 3160},
		"leak1":     {sensors.Leak: 0, sensors.BatteryPercent: 100},
		"leak2":     {sensors.Leak: 1},
		"leaf1":     {sensors.LeafWetness: 14, sensors.BatteryVoltage: 1780},
		"lightning": {sensors.LightningDistance: 27, sensors.BatteryPercent: 100},
	})
	if c := u.Counters[len(u.Counters)-1]; !c.Strikes || c.MM != 1 {
		t.Errorf("lightning_num 1 is not the last counter, of strikes: %+v", u.Counters)
	}
}

// TestAmbientEcowittProtocol: an Ambient Weather console's Ecowitt-style
// upload: batt_co2 1 is Ambient's "OK"; totalrainin is a counter.
func TestAmbientEcowittProtocol(t *testing.T) {
	u, err := Decode(Ecowitt, fixture(t, "payload_ambweather.json"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	check(t, u, expect{
		"console": {sensors.AbsolutePressure: inHgTohPa(24.679), sensors.Pressure: inHgTohPa(29.616)},
		"outdoor": {sensors.Temperature: fToC(53.8), sensors.SolarRadiation: 39.02, sensors.WindAngle: 99},
		"co2":     {sensors.BatteryPercent: 100},
	})
	if u.Model != "AMBWeatherV4.3.4" {
		t.Errorf("model %q", u.Model)
	}
}

// TestWunderground: an Ambient ObserverIP in the Weather Underground
// protocol; "now" is no time, baromin the sea-level pressure.
func TestWunderground(t *testing.T) {
	u, err := Decode(Wunderground, fixture(t, "payload_wunderground.json"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if u.Station != "MCKEAN" || !u.Time.IsZero() || u.Model != "OBSERVERIP2_V2.2.3" {
		t.Errorf("station %q, time %v, model %q", u.Station, u.Time, u.Model)
	}
	check(t, u, expect{
		"console": {sensors.Temperature: fToC(79.34), sensors.Humidity: 55, sensors.Pressure: inHgTohPa(30.135)},
		"outdoor": {sensors.Temperature: fToC(89.42), sensors.Humidity: 54, sensors.WindAngle: 269, sensors.GustStrength: mphToKmh(9.17), sensors.UV: 6,
			sensors.SolarRadiation: 732.04, sensors.BatteryPercent: 100},
	})
	if len(u.Counters) != 4 || u.Counters[3].Name != "yearly" || math.Abs(u.Counters[3].MM-inToMM(4.831)) > 1e-9 {
		t.Errorf("counters %+v", u.Counters)
	}
}

// TestGW1100BOneChannel: batt1 0 is Ecowitt's "OK"; wh40batt the rain
// gauge's voltage.
func TestGW1100BOneChannel(t *testing.T) {
	u, err := Decode(Ecowitt, fixture(t, "payload_gw1100b.json"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	check(t, u, expect{
		"channel1": {sensors.Temperature: fToC(77.7), sensors.Humidity: 51, sensors.BatteryPercent: 100},
		"soil2":    {sensors.SoilMoisture: 56, sensors.BatteryVoltage: 1800},
		"outdoor":  {sensors.Temperature: fToC(91.4), sensors.BatteryPercent: 100, sensors.BatteryVoltage: 1600},
	})
}

// TestBadFields: a bad field is a problem named by its key, the rest is
// decoded; an upload without its station is refused.
func TestBadFields(t *testing.T) {
	form := url.Values{"PASSKEY": {"K"}, "tempf": {"hot"}, "humidity": {"140"}, "tempinf": {"68"}, "winddir": {"NaN"},
		"dateutc": {"yesterday"}, "dailyrainin": {"-0.1"}, "temp99f": {"70"}}
	u, err := Decode(Ecowitt, form, Options{})
	if err != nil {
		t.Fatal(err)
	}
	bad := map[string]bool{}
	for _, p := range u.Problems {
		bad[p.Field] = true
	}
	for _, k := range []string{"tempf", "humidity", "winddir", "dateutc", "dailyrainin"} {
		if !bad[k] {
			t.Errorf("no problem for %s: %v", k, u.Problems)
		}
	}
	if len(u.Parts) != 1 || u.Parts[0].Name != "console" || math.Abs(u.Parts[0].Values[sensors.Temperature]-20) > 1e-9 {
		t.Errorf("parts %+v, want the console's 20 °C only (temp99f is no channel)", u.Parts)
	}
	if _, err := Decode(Ecowitt, url.Values{"tempf": {"70"}}, Options{}); err == nil {
		t.Error("an upload without PASSKEY was decoded")
	}
}

// TestMetric: a station set to send metric values in the imperial fields.
func TestMetric(t *testing.T) {
	u, err := Decode(Ecowitt, url.Values{"PASSKEY": {"K"}, "tempf": {"-4.4"}, "baromrelin": {"837.793"}, "windspeedmph": {"32.4"}, "yearlyrainin": {"112.8"}}, Options{Metric: true})
	if err != nil {
		t.Fatal(err)
	}
	check(t, u, expect{"outdoor": {sensors.Temperature: -4.4, sensors.WindStrength: 32.4}, "console": {sensors.Pressure: 837.793}})
	if len(u.Counters) != 1 || u.Counters[0].MM != 112.8 {
		t.Errorf("counters %+v", u.Counters)
	}
}

func FuzzDecode(f *testing.F) {
	f.Add("PASSKEY=K&tempf=70&temp3f=x&dateutc=2022-05-18+18:17:37")
	f.Add("ID=A&baromin=30&dailyrainin=1e308")
	f.Fuzz(func(t *testing.T, q string) {
		form, err := url.ParseQuery(q)
		if err != nil {
			return
		}
		for _, p := range []string{Ecowitt, Wunderground} {
			u, err := Decode(p, form, Options{})
			if err != nil {
				continue
			}
			for _, part := range u.Parts {
				for m, v := range part.Values {
					if math.IsNaN(v) || math.IsInf(v, 0) {
						t.Errorf("%s %s: %v", part.Name, m, v)
					}
				}
			}
			for _, c := range u.Counters {
				if math.IsNaN(c.MM) || math.IsInf(c.MM, 0) || c.MM < 0 {
					t.Errorf("counter %+v", c)
				}
			}
		}
	})
}

// TestWN34Probes: a GW1100B with eight WN34 temperature probes (tf_chN in
// °F, tf_battN in V), ecowitt2mqtt's later fixture of the same gateway.
func TestWN34Probes(t *testing.T) {
	u, err := Decode(Ecowitt, fixture(t, "payload_gw1100b_wn34.json"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	check(t, u, expect{
		"probe1": {sensors.Temperature: fToC(84.7), sensors.BatteryVoltage: 1600},
		"probe2": {sensors.Temperature: fToC(82.9), sensors.BatteryVoltage: 1470},
		"probe8": {sensors.Temperature: fToC(84.2), sensors.BatteryVoltage: 1300},
	})
	c, err := Decode(Ecowitt, url.Values{"PASSKEY": {"K"}, "tf_ch3c": {"12.5"}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	check(t, c, expect{"probe3": {sensors.Temperature: 12.5}})
}

// TestConsoleBattery: console_batt is the console's own battery, in V
// (aioecowitt's GW2000A test upload: 2.5).
func TestConsoleBattery(t *testing.T) {
	u, err := Decode(Ecowitt, testutil.FormFromJSON(t, filepath.Join("testdata", "aioecowitt", "gw2000a_v215.json")), Options{})
	if err != nil {
		t.Fatal(err)
	}
	check(t, u, expect{"console": {sensors.BatteryVoltage: 2500, sensors.Temperature: fToC(78.80)}})
}

// TestUnknownFields: every field of the upstream uploads is read or left
// unread on purpose; a field the decoder does not know is named.
func TestUnknownFields(t *testing.T) {
	uploads := map[string]string{"wunderground": "ecowitt2mqtt/payload_wunderground.json"}
	for _, f := range []string{"payload_gw2000a_1.json", "payload_gw2000a_2.json", "payload_gw1100b.json", "payload_gw1100b_wn34.json", "payload_ambweather.json"} {
		uploads[f] = "ecowitt2mqtt/" + f
	}
	uploads["gw2000a_v215"] = "aioecowitt/gw2000a_v215.json"
	for name, f := range uploads {
		protocol := Ecowitt
		if name == "wunderground" {
			protocol = Wunderground
		}
		u, err := Decode(protocol, testutil.FormFromJSON(t, filepath.Join("testdata", f)), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(u.Unknown) > 0 {
			t.Errorf("%s: fields unknown to the decoder: %v", f, u.Unknown)
		}
	}
	u, err := Decode(Ecowitt, url.Values{"PASSKEY": {"K"}, "tempf": {"50"}, "wn99_flux": {"3"}, "runtime": {"9"}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(u.Unknown) != 1 || u.Unknown[0] != "wn99_flux" {
		t.Errorf("unknown %v, want [wn99_flux]", u.Unknown)
	}
}
