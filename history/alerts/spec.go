package alerts

import (
	"encoding/json"
	"time"

	"github.com/climated/climated/sensors"
)

// ruleJSON is a user rule as the database keeps it: durations in seconds,
// no clear level when it is the default.
type ruleJSON struct {
	Name        string              `json:"name,omitempty"`
	Kind        Kind                `json:"kind"`
	Zone        string              `json:"zone"`
	Measurement sensors.Measurement `json:"measurement,omitempty"`
	Threshold   float64             `json:"threshold"`
	Clear       *float64            `json:"clear,omitempty"`
	Window      int64               `json:"window_s,omitempty"`
	For         int64               `json:"for_s,omitempty"`
	ClearFor    int64               `json:"clear_for_s,omitempty"`
}

func marshalRule(r Rule) (string, error) {
	j := ruleJSON{Name: r.Name, Kind: r.Kind, Zone: r.Zone, Measurement: r.Measurement, Threshold: r.Threshold,
		Window: int64(r.Window / time.Second), For: int64(r.For / time.Second), ClearFor: int64(r.ClearFor / time.Second)}
	j.Clear = r.Clear
	b, err := json.Marshal(j)
	return string(b), err
}

func unmarshalRule(spec string) (Rule, error) {
	var j ruleJSON
	if err := json.Unmarshal([]byte(spec), &j); err != nil {
		return Rule{}, err
	}
	r := Rule{Name: j.Name, Kind: j.Kind, Zone: j.Zone, Measurement: j.Measurement, Threshold: j.Threshold, Clear: j.Clear,
		Window: time.Duration(j.Window) * time.Second, For: time.Duration(j.For) * time.Second, ClearFor: time.Duration(j.ClearFor) * time.Second}
	return r, nil
}
