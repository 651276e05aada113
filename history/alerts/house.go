package alerts

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/climated/climated/sensors"
	"github.com/climated/climated/sensors/field"
)

// HouseRule configures one house rule. Every field has a default
// (DefaultHouse); the configuration changes what it names.
type HouseRule struct {
	Enabled   bool          `yaml:"enabled"`   // on unless the configuration turns it off
	Threshold float64       `yaml:"threshold"` // in the unit of the rule's measurement
	Clear     *float64      `yaml:"clear"`     // where it clears; unset means the default hysteresis (Rule.DefaultClear)
	For       time.Duration `yaml:"for"`       // how long it must hold before firing
	ClearFor  time.Duration `yaml:"clear_for"` // how long the clear condition must hold
	Window    time.Duration `yaml:"window"`    // storm: the window of the pressure fall
}

// HouseConfig is the house rules, each on by default. A configuration file
// embeds it (alerts: house: …) and is decoded over DefaultHouse.
type HouseConfig struct {
	// Outdoor lists the outdoor zones (frost, and the outside temperature
	// of the condensation rule). Empty means the zones whose names say so:
	// see OutdoorByName.
	Outdoor      []string  `yaml:"outdoor"`
	Mould        HouseRule `yaml:"mould"`        // indoor humidity above 70 % for 6 h
	Condensation HouseRule `yaml:"condensation"` // dew point within 1 °C of an outside wall's surface for 1 h
	CO2          HouseRule `yaml:"co2"`          // CO2 above 1400 ppm for 15 min
	Frost        HouseRule `yaml:"frost"`        // outdoor temperature below 0 °C for 10 min
	Storm        HouseRule `yaml:"storm"`        // pressure falling 3.6 hPa or more within 3 h
	Silent       HouseRule `yaml:"silent"`       // a zone silent for 1 h
	Battery      HouseRule `yaml:"battery"`      // a battery under 15 %
}

// DefaultHouse is the house rules as they are without configuration.
//
//   - mould: relative humidity above 70 % held 6 hours, in indoor zones;
//     clears under 65 %. Mould grows where surfaces stay above about 80 %
//     for days (DIN 4108-2, EN ISO 13788); room air at 70 % brings a cold
//     corner there.
//   - condensation: the room's dew point within 1 °C of the estimated inner
//     surface temperature of an outside wall (see SurfaceTemperature) for
//     1 hour; needs an outdoor zone's temperature.
//   - co2: above 1400 ppm for 15 minutes: the upper bound of "medium"
//     indoor air (IDA 3) of EN 13779 is 1000 ppm over outdoor air of about
//     400 ppm; clears under 1300 ppm.
//   - frost: outdoor temperature below 0 °C held 10 minutes; clears over
//     1.5 °C.
//   - storm: sea-level pressure falling by 3.6 hPa or more within 3 hours,
//     which the Met Office's marine glossary calls "falling quickly"
//     (3.6–6.0 hPa in the preceding three hours; "very rapidly" beyond);
//     clears once the fall is under 1.8 hPa.
//   - silent: a zone that sent nothing for an hour.
//   - battery: a battery_percent under 15 %; clears over 16 %.
func DefaultHouse() HouseConfig {
	on := func(th float64, hold time.Duration) HouseRule {
		return HouseRule{Enabled: true, Threshold: th, For: hold}
	}
	mouldClear := 65.0
	h := HouseConfig{
		Mould:        on(70, 6*time.Hour),
		Condensation: on(1, time.Hour),
		CO2:          on(1400, 15*time.Minute),
		Frost:        on(0, 10*time.Minute),
		Storm:        on(3.6, 0),
		Silent:       on(0, time.Hour),
		Battery:      on(15, 0),
	}
	h.Mould.Clear = &mouldClear
	h.Storm.Window = 3 * time.Hour
	return h
}

// Rules turns the configuration into the house rules that are on, with an
// error naming the configuration key of anything invalid.
func (h HouseConfig) Rules() ([]Rule, error) {
	specs := []struct {
		key   string
		cfg   HouseRule
		name  string
		kind  Kind
		scope Scope
		m     sensors.Measurement
	}{
		{"mould", h.Mould, "mould risk", Above, IndoorZone, sensors.Humidity},
		{"condensation", h.Condensation, "condensation risk", Condensation, IndoorZone, ""},
		{"co2", h.CO2, "stuffy air", Above, AnyZone, sensors.CO2},
		{"frost", h.Frost, "frost", Below, OutdoorZone, sensors.Temperature},
		{"storm", h.Storm, "storm warning", Fall, AnyZone, sensors.Pressure},
		{"silent", h.Silent, "silent sensor", Stale, AnyZone, ""},
		{"battery", h.Battery, "low battery", Below, AnyZone, sensors.BatteryPercent},
	}
	var rules []Rule
	for _, s := range specs {
		if !s.cfg.Enabled {
			continue
		}
		r := Rule{ID: "house." + s.key, Name: s.name, Kind: s.kind, Scope: s.scope, Measurement: s.m,
			Threshold: s.cfg.Threshold, Clear: s.cfg.Clear, For: s.cfg.For, ClearFor: s.cfg.ClearFor, Window: s.cfg.Window, House: true}
		if s.kind == Stale {
			r.Threshold = 0
		}
		if err := r.Validate(nil); err != nil {
			return nil, houseError(s.key, err)
		}
		rules = append(rules, r)
	}
	return rules, nil
}

// houseError is the error of house rule key as a *field.Error at the
// configuration key of the rule's field (alerts.house.co2.threshold), so
// that a configuration's error points at that line.
func houseError(key string, err error) error {
	path := "alerts.house." + key
	var inv *InvalidError
	if errors.As(err, &inv) {
		path += "." + inv.Field
	}
	return field.Errorf(path, "alerts.house.%s: %w", key, err)
}

// Validate checks the configuration's outdoor zones against the known
// zones and the rules' thresholds; errors are *field.Error naming the
// configuration key.
func (h HouseConfig) Validate(zones []string) error {
	for i, z := range h.Outdoor {
		if !slices.Contains(zones, z) {
			return field.Errorf(fmt.Sprintf("alerts.house.outdoor[%d]", i), "alerts.house.outdoor: unknown zone %q; known zones: %s", z, strings.Join(zones, ", "))
		}
	}
	_, err := h.Rules()
	return err
}

// outdoorWords are what the name of an outdoor zone contains.
var outdoorWords = []string{"balcony", "garden", "outdoor", "outside", "terrace", "patio", "yard", "roof", "porch"}

// OutdoorByName reports whether a zone's name says it is outdoors:
// Balcony, Garden, Outdoor, Outside, Terrace, Patio, Yard, Roof, Porch, in
// any case and within a longer name ("Back garden").
func OutdoorByName(zone string) bool {
	z := strings.ToLower(zone)
	return slices.ContainsFunc(outdoorWords, func(w string) bool { return strings.Contains(z, w) })
}

// IsOutdoor reports whether zone is outdoors: the configuration's list when it has one, names otherwise.
func (h HouseConfig) IsOutdoor(zone string) bool {
	if len(h.Outdoor) > 0 {
		return slices.Contains(h.Outdoor, zone)
	}
	return OutdoorByName(zone)
}

// inScope reports whether rule r applies in the zone named name, outdoor
// or not (zone.outdoor, decided once per zone).
func inScope(r *Rule, name string, outdoor bool) bool {
	switch {
	case r.Zone != "":
		return r.Zone == name
	case r.Scope == IndoorZone:
		return !outdoor
	case r.Scope == OutdoorZone:
		return outdoor
	}
	return true
}
