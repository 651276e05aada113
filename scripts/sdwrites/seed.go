package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/climated/climated/history"
	"github.com/climated/climated/sensors"
)

// moveAge is how old the oldest reading of recent gets before the hub
// moves recent into raw and the rollups (history's compactAge).
const moveAge = 6 * time.Hour

// seed writes into a new database at path the house's readings of the
// past: every zone's four readings a minute, but for up to an hour
// before the last past. Those of the last past are left in recent, as a hub that ran that long leaves them; the two days
// before are moved into raw and the rollups first, so that the move the
// hub makes, once the oldest in recent is six hours old, appends to
// tables that hold a history, as a running hub's do, not to empty ones.
// A run of the script then holds one such move (scripts/sdwrites.sh).
func seed(path string, zones int, past time.Duration) (int, error) {
	ctx := context.Background()
	end := time.Now().Truncate(time.Minute)
	cut := end.Add(-past)
	clock := cut
	s, err := history.Open(ctx, path, &history.Options{FlushInterval: time.Hour, Now: func() time.Time { return clock }})
	if err != nil {
		return 0, err
	}
	// The move takes whole hours: the hour of cut is left out, so that
	// the oldest reading in recent is cut's.
	n, err := record(s, zones, cut.Add(-48*time.Hour), cut.Truncate(time.Hour))
	if err == nil {
		err = s.Flush(ctx)
	}
	if err == nil {
		err = s.Compact(ctx)
	}
	if err == nil {
		clock = end
		var m int
		m, err = record(s, zones, cut, end)
		n += m
	}
	return n, errors.Join(err, s.Close(ctx))
}

// record records every zone's readings a minute from from to to.
func record(s *history.Store, zones int, from, to time.Time) (int, error) {
	n := 0
	for t := from; t.Before(to); t = t.Add(time.Minute) {
		var rs []sensors.Reading
		for z := range zones {
			rs = append(rs, readings(z, t)...)
		}
		if err := s.Record(context.Background(), sensors.Batch{Readings: rs}); err != nil {
			return n, err
		}
		n += len(rs)
	}
	return n, nil
}

// readings are what the hub makes of zone z's state at t (payload).
func readings(z int, t time.Time) []sensors.Reading {
	name := fmt.Sprintf("room_%02d", z)
	round := int(t.Unix() / 60)
	x := float64(round%10000)/30 + float64(z)
	src := "mqtt/zigbee2mqtt/" + name
	at := t.Add(time.Duration(z) * time.Minute / 20)
	return []sensors.Reading{
		{Zone: name, Measurement: sensors.Temperature, Value: 20 + 2*math.Sin(x), Time: at, Source: src},
		{Zone: name, Measurement: sensors.Humidity, Value: 50 + 10*math.Cos(x/2), Time: at, Source: src},
		{Zone: name, Measurement: sensors.BatteryPercent, Value: 100, Time: at, Source: src},
		{Zone: name, Measurement: sensors.RFStatus, Value: float64(60 + (round*7+z)%30), Time: at, Source: src},
	}
}
