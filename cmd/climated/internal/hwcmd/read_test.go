package hwcmd

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/climated/climated/history/climate"
	"github.com/climated/climated/sensors"
)

// TestPrintNestedIsTheStructure: climated read prints what get_climate
// would hold for the same readings: values at their display resolution,
// When the zone's newest time, and the keys derived from one reading.
func TestPrintNestedIsTheStructure(t *testing.T) {
	at := time.Unix(1_800_000_000, 0)
	var out bytes.Buffer
	err := printNested(&out, []sensors.Reading{
		{Zone: "Indoor", Measurement: sensors.Temperature, Value: 21.04, Time: at.Add(-time.Second), Source: "bme280"},
		{Zone: "Indoor", Measurement: sensors.Humidity, Value: 40.4, Time: at, Source: "bme280"},
	})
	if err != nil {
		t.Fatal(err)
	}
	var got climate.Structure
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	z := got["Indoor"]
	if z[string(sensors.Temperature)] != 21.0 || z[string(sensors.Humidity)] != 40.0 || z[sensors.KeyWhen] != float64(at.Unix()) ||
		z[sensors.KeyMinTemp] != 21.0 || z[sensors.KeyMaxTemp] != 21.0 {
		t.Errorf("read printed %s", out.String())
	}
}
