package alerts

import "github.com/climated/climated/sensors"

// Level is where a level rule (Above, Below) draws its line in one zone:
// a value past it is what the rule watches for, before the rule's hold
// (For) makes it an alert. The dashboard marks such values.
type Level struct {
	Zone        string
	Measurement sensors.Measurement
	Kind        Kind    // Above or Below
	Threshold   float64 // in the measurement's catalogue unit
	Rule        string  // the rule's ID
	Text        string  // the rule in words (Describe)
}

// Levels lists the lines of the level rules in every zone the engine
// knows (configured or seen), each zone's house rules by their scope.
func (e *Engine) Levels() []Level {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []Level
	for i := range e.rules {
		r := &e.rules[i]
		if r.Kind != Above && r.Kind != Below {
			continue
		}
		text := r.Describe()
		for name, z := range e.zones {
			if inScope(r, name, z.outdoor) {
				out = append(out, Level{Zone: name, Measurement: r.Measurement, Kind: r.Kind, Threshold: r.Threshold, Rule: r.ID, Text: text})
			}
		}
	}
	return out
}
