package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"time"
)

// The year house's zones and sources, by the catalogue's names.
const (
	station   = "Garden"
	stationBy = "station/gw2000a"
	roomEvery = 5 * time.Minute
	// Readings come a few seconds past the minute, as uploads do.
	stationSecond = 7 * time.Second
	roomSecond    = 23 * time.Second
)

// csvHeader is climated export's header, which import wants first.
const csvHeader = "time,zone,measurement,value,source\n"

// houseStats is what writing the house made.
type houseStats struct {
	Readings int64         `json:"readings"`
	Bytes    int64         `json:"csv_bytes"`
	Took     time.Duration `json:"-"`
	From     time.Time     `json:"from"`
	To       time.Time     `json:"to"`
}

// writeHouse writes days of the house, ending at end, as climated
// export's CSV to path: the garden's station every minute, the rooms every
// five.
func writeHouse(path string, days int, seed uint64, end time.Time, loc *time.Location) (houseStats, error) {
	start := time.Now()
	f, err := os.Create(path)
	if err != nil {
		return houseStats{}, err
	}
	cw := &csvWriter{w: bufio.NewWriterSize(f, 1<<20)}
	end = end.Truncate(time.Minute)
	from := end.Add(-time.Duration(days) * 24 * time.Hour)
	if _, err := io.WriteString(cw.w, csvHeader); err != nil {
		f.Close()
		return houseStats{}, err
	}
	writeReadings(cw, from, end, seed, loc)
	err = cw.w.Flush()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	st := houseStats{Readings: cw.n, Took: time.Since(start), From: from, To: end}
	if fi, serr := os.Stat(path); serr == nil {
		st.Bytes = fi.Size()
	}
	if err != nil {
		return st, fmt.Errorf("write %s: %w", path, err)
	}
	return st, nil
}

// writeReadings writes every reading from from (exclusive) to end (inclusive),
// minute by minute.
func writeReadings(cw *csvWriter, from, end time.Time, seed uint64, loc *time.Location) {
	w := newWeather(seed)
	rooms := newRooms(seed)
	// A day before the first reading lets the rooms' air settle.
	for t := from.Add(-24 * time.Hour).Truncate(roomEvery); !t.After(from); t = t.Add(roomEvery) {
		o := w.at(t)
		for _, r := range rooms {
			r.at(t.In(loc), o)
		}
	}
	wet := 0.0 // what fell below the gauge's resolution
	for t := from.Add(time.Minute); !t.After(end); t = t.Add(time.Minute) {
		o := w.at(t)
		cw.stamp(t.Add(stationSecond))
		cw.row(station, "Temperature", o.temp, 1, stationBy)
		cw.row(station, "Humidity", math.Round(o.hum), 0, stationBy)
		cw.row(station, "WindStrength", o.wind, 1, stationBy)
		cw.row(station, "WindAngle", math.Round(o.dir), 0, stationBy)
		cw.row(station, "GustStrength", o.gust, 1, stationBy)
		cw.row(station, "SolarRadiation", o.solar, 1, stationBy)
		cw.row(station, "UV", o.uv, 1, stationBy)
		// Rain is an amount: the gauge reports what fell at its
		// resolution, 0.01 mm, keeping the rest for the next minute; a
		// minute with none has no reading.
		wet += o.rain
		if mm := math.Floor(wet*100) / 100; mm > 0 {
			cw.row(station, "Rain", mm, 2, stationBy)
			wet -= mm
		}
		if t.Sub(t.Truncate(roomEvery)) != 0 {
			continue
		}
		cw.stamp(t.Add(roomSecond))
		for _, r := range rooms {
			temp, hum, co2 := r.at(t.In(loc), o)
			src := "mqtt/zigbee2mqtt/" + r.name
			cw.row(r.name, "Temperature", temp, 1, src)
			cw.row(r.name, "Humidity", math.Round(hum), 0, src)
			cw.row(r.name, "CO2", math.Round(co2), 0, src)
		}
	}
}

// csvWriter appends rows to w without an allocation a row.
type csvWriter struct {
	w    *bufio.Writer
	when []byte
	line []byte
	n    int64
}

// stamp sets the time of the rows that follow.
func (c *csvWriter) stamp(t time.Time) {
	c.when = t.UTC().AppendFormat(c.when[:0], time.RFC3339)
}

func (c *csvWriter) row(zone, m string, v float64, decimals int, source string) {
	b := append(c.line[:0], c.when...)
	b = append(b, ',')
	b = append(b, zone...)
	b = append(b, ',')
	b = append(b, m...)
	b = append(b, ',')
	b = strconv.AppendFloat(b, v, 'f', decimals, 64)
	b = append(b, ',')
	b = append(b, source...)
	b = append(b, '\n')
	c.line = b
	c.w.Write(b) // the error stays in the writer: Flush returns it
	c.n++
}
