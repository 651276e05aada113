package main

import (
	"context"
	"math"
	"net/http"
	"net/url"
	"path/filepath"
	"testing"
	"time"

	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/cmd/climated/internal/token"
	"github.com/climated/climated/history"
	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/station"
)

// stationHub is a hub with a station: section and no other source.
func stationHub(t *testing.T) config.Config {
	t.Helper()
	cfg := testConfig(t)
	off := false
	cfg.Demo.Enabled = &off
	cfg.Station = &station.Config{Zones: map[string]string{"outdoor": "Garden", "console": "Hall", "channel1": "Bedroom"}}
	return cfg
}

// stationForm is one of ecowitt2mqtt's real uploads
// (sensors/station/testdata/ecowitt2mqtt), stamped now.
func stationForm(t *testing.T, name string, at time.Time) url.Values {
	t.Helper()
	form := testutil.FormFromJSON(t, filepath.Join("..", "..", "sensors", "station", "testdata", "ecowitt2mqtt", name))
	form.Set("dateutc", at.UTC().Format("2006-01-02 15:04:05"))
	return form
}

func postStation(t *testing.T, h served, cfg config.Config, form url.Values) int {
	t.Helper()
	secret, err := token.LoadOrCreate(cfg.StationSecretPath())
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.PostForm("http://"+h.Addr.String()+station.Path(secret)+"data/report/", form)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestStationUploadsThroughServe: a GW2000A's real upload, POSTed to the
// printed path of a running hub, becomes the zones the configuration
// names, in °C and hPa; a wrong path is not the station's.
func TestStationUploadsThroughServe(t *testing.T) {
	cfg := stationHub(t)
	h := startHub(t, cfg)
	if code := postStation(t, h, cfg, stationForm(t, "payload_gw2000a_2.json", time.Now())); code != http.StatusOK {
		t.Fatalf("upload: %d", code)
	}
	want := map[string]map[sensors.Measurement]float64{
		"Garden":  {sensors.Temperature: (59.7 - 32) / 1.8, sensors.Humidity: 65},
		"Hall":    {sensors.Temperature: (72.9 - 32) / 1.8, sensors.Pressure: 29.870 * 33.86389},
		"Bedroom": {sensors.Temperature: (71.2 - 32) / 1.8, sensors.Humidity: 61},
	}
	snap := h.Hub.Snapshot().Climate
	for zone, vals := range want {
		for m, w := range vals {
			if got, ok := snap[zone][string(m)].(float64); !ok || math.Abs(got-w) > 0.06 {
				t.Errorf("%s %s: %v, want %.2f (get_climate rounds)", zone, m, snap[zone][string(m)], w)
			}
		}
	}
	if _, ok := snap["Station channel2"]; !ok {
		t.Errorf("channel 2, not named in zones:, has no zone of its own: %v", zoneNames(snap))
	}
	resp, err := http.PostForm("http://"+h.Addr.String()+"/station/guess/data/report/", stationForm(t, "payload_gw2000a_2.json", time.Now()))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode == http.StatusOK {
		t.Error("an upload to a guessed path was taken")
	}
}

func zoneNames(m map[string]map[string]any) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}

// TestStationRainAcrossRestart: the rain of a station's counters, end to
// end through SQLite: counted between uploads, and after the hub
// restarts from where the last committed upload left it.
func TestStationRainAcrossRestart(t *testing.T) {
	cfg := stationHub(t)
	h, stop := runHub(t, cfg)
	start := time.Now().Add(-12 * time.Minute).Truncate(time.Second) // within the 15 min a dateutc is believed
	send := func(h served, at time.Time, yearly string) {
		t.Helper()
		f := url.Values{"PASSKEY": {"K"}, "model": {"GW1100B"}, "dateutc": {at.UTC().Format("2006-01-02 15:04:05")}, "tempf": {"50"}, "yearlyrainin": {yearly}, "dailyrainin": {"0"}}
		if code := postStation(t, h, cfg, f); code != http.StatusOK {
			t.Fatalf("upload at %v: %d", at, code)
		}
	}
	send(h, start, "10.000")
	send(h, start.Add(time.Minute), "10.100")
	stop()
	h, stop = runHub(t, cfg)
	defer stop()
	send(h, start.Add(5*time.Minute), "10.200") // 0.1 in fell while the hub was down
	send(h, start.Add(10*time.Minute), "10.300")
	if err := h.Hub.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	s, err := h.Hub.Range(context.Background(), history.Query{Zone: "Garden", Measurement: sensors.Rain, From: start.Add(-time.Hour), To: time.Now().Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	total := 0.0
	if s.Summary != nil && s.Summary.Sum != nil {
		total = *s.Summary.Sum
	}
	if want := 0.3 * 25.4; math.Abs(total-want) > 0.01 {
		t.Errorf("rain %.3f mm in the history, want %.3f (0.1 in before the restart, 0.1 while it was down, 0.1 after): %+v", total, want, s.Points)
	}
}

// TestStationReadingOutsideTheCatalogue: a value the decoder takes but
// the history refuses (CO₂ 20,000 ppm, beyond the catalogue's 10,000) is
// left out, and the rest of the upload is recorded and answered 200.
func TestStationReadingOutsideTheCatalogue(t *testing.T) {
	cfg := stationHub(t)
	h := startHub(t, cfg)
	f := url.Values{"PASSKEY": {"K"}, "model": {"GW2000A"}, "tempf": {"50"}, "co2": {"20000"}}
	if code := postStation(t, h, cfg, f); code != http.StatusOK {
		t.Fatalf("upload: %d, want 200", code)
	}
	snap := h.Hub.Snapshot().Climate
	if _, ok := snap["Garden"]["Temperature"]; !ok {
		t.Errorf("the garden's temperature was not recorded: %v", snap["Garden"])
	}
	if v, ok := snap["Station co2"]["CO2"]; ok {
		t.Errorf("CO₂ %v recorded beyond the catalogue's range", v)
	}
}

// TestStationLightning: a WH57's strikes, end to end through SQLite: the
// day's count (lightning_num) counted as the rain's counters are, across
// a restart of the hub; the distance kept only from uploads that counted
// strikes (the station repeats the last one until the next strike).
func TestStationLightning(t *testing.T) {
	cfg := stationHub(t)
	h, stop := runHub(t, cfg)
	start := time.Now().Add(-12 * time.Minute).Truncate(time.Second)
	send := func(h served, at time.Time, count, km string) {
		t.Helper()
		f := url.Values{"PASSKEY": {"K"}, "model": {"GW2000A"}, "dateutc": {at.UTC().Format("2006-01-02 15:04:05")},
			"lightning_num": {count}, "lightning": {km}, "lightning_time": {"1650475037"}, "wh57batt": {"5"}}
		if code := postStation(t, h, cfg, f); code != http.StatusOK {
			t.Fatalf("upload at %v: %d", at, code)
		}
	}
	send(h, start, "5", "20")                    // the baseline
	send(h, start.Add(time.Minute), "8", "12")   // 3 strikes, the last 12 km away
	send(h, start.Add(2*time.Minute), "8", "12") // none: the distance is the old one
	stop()
	h, stop = runHub(t, cfg)
	defer stop()
	send(h, start.Add(5*time.Minute), "10", "7") // 2 while the hub was down
	if err := h.Hub.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	read := func(m sensors.Measurement) *history.Series {
		s, err := h.Hub.Range(context.Background(), history.Query{Zone: "Station lightning", Measurement: m, From: start.Add(-time.Hour), To: time.Now().Add(time.Hour), Step: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	strikes, dist := read(sensors.Lightning), read(sensors.LightningDistance)
	if strikes.Summary == nil || strikes.Summary.Sum == nil || *strikes.Summary.Sum != 5 {
		t.Errorf("strikes in the history: %+v, want 5 (3, then 2 across the restart)", strikes.Summary)
	}
	if len(dist.Points) != 2 || dist.Points[0][1] != 12 || dist.Points[1][1] != 7 {
		t.Errorf("distances %v, want 12 km then 7 km, from the two uploads that counted strikes", dist.Points)
	}
}
