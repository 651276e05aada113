package sensors

import (
	"math"
	"testing"
)

// TestCatalogue holds every entry to what its consumers need of it: the
// consumer-side halves are TestCatalogueStorage (history),
// TestDiscoveryAnnouncesEveryMeasurement (mqtt) and
// TestToolsDescribeEveryMeasurement (mcp).
func TestCatalogue(t *testing.T) {
	ms := Measurements()
	if len(Catalogue()) != len(ms) {
		t.Errorf("%d entries for %d measurements: a measurement has two", len(Catalogue()), len(ms))
	}
	// The 11 of the get_climate contract and the 6 of air quality.
	for _, m := range []Measurement{Temperature, Humidity, CO2, Noise, Pressure, AbsolutePressure, Rain,
		BatteryVoltage, BatteryPercent, RFStatus, WiFiStatus, PM1, PM25, PM4, PM10, VOCIndex, NOxIndex} {
		if _, ok := Lookup(m); !ok {
			t.Errorf("%s is not in the catalogue", m)
		}
	}
	for _, info := range Catalogue() {
		if got, ok := Lookup(info.Name); !ok || got.Name != info.Name {
			t.Errorf("%s: not found by Lookup", info.Name)
		}
		checkEntry(t, info)
	}
	for _, m := range []Measurement{Rain, Lightning} {
		if info, _ := Lookup(m); info.Kind != Amount {
			t.Errorf("%s must add up (Amount)", m)
		}
	}
	for _, m := range []Measurement{WindAngle, GustAngle} {
		if info, _ := Lookup(m); info.Kind != Direction {
			t.Errorf("%s must be averaged as a direction", m)
		}
	}
}

func checkEntry(t *testing.T, info Info) {
	t.Helper()
	m := info.Name
	if info.Min >= info.Max || info.Description == "" || info.Brief == "" {
		t.Errorf("%s: range %g…%g, description %q, brief %q", m, info.Min, info.Max, info.Description, info.Brief)
	}
	// Stored no coarser than shown, and fine enough that the largest
	// value is still an exact integer of float64 storage.
	if !(info.Resolution > 0 && info.Resolution <= math.Pow10(-info.Decimals)+1e-12) || info.Max/info.Resolution > 1<<53 {
		t.Errorf("%s: resolution %g with %d decimals and maximum %g", m, info.Resolution, info.Decimals, info.Max)
	}
	// The catalogue unit, and every spelling, converts; the unit itself
	// to the same value.
	if v, err := m.Convert(1, info.Unit); err != nil || v != 1 {
		t.Errorf("%s: Convert(1, %q) = %v, %v; want 1", m, info.Unit, v, err)
	}
	if info.Unit == "" && len(info.Units) == 0 {
		t.Errorf("%s: no unit and no conversions", m)
	}
	for _, c := range info.Units {
		if len(c.Spellings) == 0 || c.To == nil {
			t.Errorf("%s: conversion %v without spellings or function", m, c.Spellings)
		}
		for _, s := range c.Spellings {
			if _, err := m.Convert(0, s); err != nil {
				t.Errorf("%s: unit %q: %v", m, s, err)
			}
		}
	}
	// Home Assistant's state class of angles (2025.2) for directions.
	state := map[bool]string{true: "measurement_angle", false: "measurement"}[info.Kind == Direction]
	if info.HA.Binary {
		state = "" // a binary_sensor has none
	}
	if info.HA.Name == "" || info.HA.StateClass != state {
		t.Errorf("%s: Home Assistant entry %+v lacks a name or the measurement state class", m, info.HA)
	}
	if info.HA.DeviceClass == "" && info.HA.Icon == "" {
		t.Errorf("%s: Home Assistant entry has neither a device class nor an icon", m)
	}
}
