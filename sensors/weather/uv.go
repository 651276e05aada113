package weather

import "math"

// UVCategory is the WHO's exposure category of a UV index (Global Solar
// UV Index: A Practical Guide, WHO 2002, table 1: 0–2 low, 3–5 moderate,
// 6–7 high, 8–10 very high, 11+ extreme). The index is published as a
// whole number, so a reading is rounded first: 2.6 is moderate.
func UVCategory(uv float64) string {
	switch i := math.Round(uv); {
	case i <= 2:
		return "low"
	case i <= 5:
		return "moderate"
	case i <= 7:
		return "high"
	case i <= 10:
		return "very high"
	}
	return "extreme"
}
