package sensors

import (
	"strings"
	"testing"
)

// TestSignal is the one conversion of radio signals onto Netatmo's scales.
// The same levels are checked from every source: the hub's own Wi-Fi in
// sensors/hw (TestWiFiEveryLevel) and every MQTT format in mqtt/decode
// (TestSignalEverySource).
func TestSignal(t *testing.T) {
	tests := []struct {
		name string
		f    func() (float64, error)
		want float64
		err  string
	}{
		{"better than good", func() (float64, error) { return SignalFromDBm(-40) }, 40, ""},
		{"good mark", func() (float64, error) { return SignalFromDBm(-WiFiGood) }, WiFiGood, ""},
		{"average mark", func() (float64, error) { return SignalFromDBm(-WiFiAverage) }, WiFiAverage, ""},
		{"bad mark", func() (float64, error) { return SignalFromDBm(-WiFiBad) }, WiFiBad, ""},
		{"worse than bad", func() (float64, error) { return SignalFromDBm(-90) }, 90, ""},
		{"fraction kept", func() (float64, error) { return SignalFromDBm(-63.4) }, 63.4, ""},
		{"below any receiver", func() (float64, error) { return SignalFromDBm(-130) }, 120, ""},
		{"positive dBm", func() (float64, error) { return SignalFromDBm(5) }, 0, "want a negative level"},
		{"100 %", func() (float64, error) { return SignalFromPercent(100) }, 50, ""},
		{"70 % is −65 dBm", func() (float64, error) { return SignalFromPercent(70) }, 65, ""},
		{"0 %", func() (float64, error) { return SignalFromPercent(0) }, 100, ""},
		{"101 %", func() (float64, error) { return SignalFromPercent(101) }, 0, "want 0…100"},
		{"lqi 0", func() (float64, error) { return SignalFromLQI(RFStatus, 0) }, RFLow, ""},
		{"lqi 255", func() (float64, error) { return SignalFromLQI(RFStatus, 255) }, RFFull, ""},
		{"lqi 255 on wifi", func() (float64, error) { return SignalFromLQI(WiFiStatus, 255) }, WiFiGood, ""},
		{"lqi 0 on wifi", func() (float64, error) { return SignalFromLQI(WiFiStatus, 0) }, WiFiBad, ""},
		{"lqi 300", func() (float64, error) { return SignalFromLQI(RFStatus, 300) }, 0, "want 0…255"},
		{"lqi of temperature", func() (float64, error) { return SignalFromLQI(Temperature, 10) }, 0, "not a radio signal"},
	}
	for _, tt := range tests {
		got, err := tt.f()
		switch {
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("%s: err %v, want %q", tt.name, err, tt.err)
		case tt.err == "" && (err != nil || got != tt.want):
			t.Errorf("%s: %v, %v; want %v", tt.name, got, err, tt.want)
		}
	}
}
