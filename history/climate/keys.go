package climate

// Structure is the get_climate structure: zone name → key → value, where a
// value is a float64 (a measurement), an int64 (a Unix time) or a trend
// word. A measurement's key is its name (sensors.Measurement); the derived
// keys are sensors.Key*.
type Structure map[string]map[string]any
