package history

import (
	"context"
	"testing"
	"time"

	"github.com/climated/climated/sensors"
)

// TestYearOfMonths: a year's months from its days, worked by hand: two
// months of hourly readings (the temperature the day of the month plus
// the hour's tenth, so each month's extremes are known; 1 mm of rain an
// hour on the 10th of each month, 2 mm on February the 20th; the wind
// from 350° and 10°, so north), and the year as their whole.
func TestYearOfMonths(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var rs []sensors.Reading
	for at := start; at.Before(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)); at = at.Add(time.Hour) {
		add := func(m sensors.Measurement, v float64) {
			rs = append(rs, sensors.Reading{Zone: "Garden", Measurement: m, Value: v, Time: at, Source: "station/test"})
		}
		add(sensors.Temperature, float64(at.Day())+float64(at.Hour())/10)
		add(sensors.WindAngle, float64(350+20*(at.Hour()%2))-360*float64(at.Hour()%2))
		switch {
		case at.Day() == 10:
			add(sensors.Rain, 1)
		case at.Month() == time.February && at.Day() == 20:
			add(sensors.Rain, 2)
		}
	}
	s := storeWith(t, time.UTC, time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC), rs)
	y, err := s.YearOf(context.Background(), "Garden", 2026)
	if err != nil {
		t.Fatal(err)
	}
	if len(y.Months) != 2 || y.Months[0].Period != "2026-01" || y.Months[1].Period != "2026-02" || y.Year.Period != "2026" {
		t.Fatalf("months %+v, year %q", y.Months, y.Year.Period)
	}
	jan, feb, all := y.Months[0], y.Months[1], y.Year
	if tm := jan.Measurements["Temperature"]; *tm.Min != 1 || tm.MinTime != start.Unix() || *tm.Max != 33.3 || jan.Days != 31 {
		t.Errorf("January's temperature %+v over %d days; want 1 °C on the 1st at midnight, 33.3 °C on the 31st", tm, jan.Days)
	}
	if r := feb.Measurements["Rain"]; *r.Sum != 72 || r.MaxDay != "2026-02-20" || *r.MaxDaySum != 48 {
		t.Errorf("February's rain %+v; want 72 mm, the wettest day the 20th with 48 mm", r)
	}
	if r := all.Measurements["Rain"]; *r.Sum != 96 || r.MaxDay != "2026-02-20" || all.Days != 59 {
		t.Errorf("the year's rain %+v over %d days; want 96 mm, the wettest day February the 20th, 59 days", r, all.Days)
	}
	if w := all.Measurements["WindAngle"]; w.Mean != 0 || w.Min != nil {
		t.Errorf("the year's wind %+v; want from the north (0°), no extremes", w)
	}
	if tm := all.Measurements["Temperature"]; *tm.Max != 31.3+2 || tm.MaxTime != time.Date(2026, 1, 31, 23, 0, 0, 0, time.UTC).Unix() {
		t.Errorf("the year's highest temperature %+v; want 33.3 °C on January the 31st at 23:00", tm)
	}
}
