package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"
)

// report is what a run measured, printed as a table or as JSON.
type report struct {
	Date         string       `json:"date"`
	Commit       string       `json:"commit,omitempty"`
	Machine      string       `json:"machine"`
	Load         string       `json:"load_average,omitempty"` // at the start: other work on the machine slows every answer
	Days         int          `json:"days,omitempty"`
	Runs         int          `json:"runs"`
	GoalMS       float64      `json:"goal_ms"`
	House        *houseStats  `json:"house,omitempty"`
	HouseSeconds float64      `json:"house_seconds,omitempty"`
	Import       *importStats `json:"import,omitempty"`
	StartSeconds float64      `json:"start_seconds,omitempty"`
	// SettleSeconds is how long the hub worked after it served, before
	// the first answer was timed.
	SettleSeconds float64   `json:"settle_seconds,omitempty"`
	Rows          []row     `json:"rows"`
	NotMeasured   []skipped `json:"not_measured"`
}

func newReport(o options) *report {
	r := &report{Date: time.Now().UTC().Format("2006-01-02 15:04 UTC"), Commit: o.commit, Machine: machine(), Load: loadAverage(),
		Runs: o.runs, GoalMS: ms(o.goal), NotMeasured: []skipped{}}
	if o.url == "" {
		r.Days = o.days
	}
	return r
}

// machine names the processor and its cores.
func machine() string {
	name := runtime.GOARCH
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
				name = strings.TrimSpace(v)
				break
			}
		}
		f.Close()
	}
	return fmt.Sprintf("%d × %s, %s/%s", runtime.NumCPU(), name, runtime.GOOS, runtime.GOARCH)
}

// loadAverage is the system's load averages over 1, 5 and 15 minutes.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return ""
}

func (r *report) failed() int {
	n := 0
	for _, row := range r.Rows {
		if row.Error != "" {
			n++
		}
	}
	return n
}

func (r *report) over() int {
	n := 0
	for _, row := range r.Rows {
		if row.OverGoal {
			n++
		}
	}
	return n
}

func (r *report) print(w io.Writer, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	bw := bufio.NewWriter(w)
	r.heading(bw)
	fmt.Fprintf(bw, "| answer | median of %d | bytes | ~tokens | ≤ %s |\n|---|---:|---:|---:|---|\n", r.Runs, goalWords(r.GoalMS))
	for _, row := range r.Rows {
		if row.Error != "" {
			fmt.Fprintf(bw, "| %s | failed: %s | | | |\n", row.Answer, strings.ReplaceAll(truncate(row.Error, 300), "|", "/"))
			continue
		}
		mark := "yes"
		if row.OverGoal {
			mark = "**over**"
		}
		fmt.Fprintf(bw, "| %s | %s ms | %s | %s | %s |\n", row.Answer, millis(row.MedianMS), thousands(row.Bytes), thousands(row.Tokens), mark)
	}
	fmt.Fprintln(bw)
	for _, s := range r.NotMeasured {
		fmt.Fprintf(bw, "not measured: %s %s (%s)\n", s.Kind, s.Of, s.Why)
	}
	fmt.Fprintf(bw, "%d answers, %d over %s, %d failed\n", len(r.Rows), r.over(), goalWords(r.GoalMS), r.failed())
	return bw.Flush()
}

// heading says what was measured, where and when.
func (r *report) heading(w io.Writer) {
	fmt.Fprintf(w, "%s", r.Date)
	if r.Commit != "" {
		fmt.Fprintf(w, ", commit %s", r.Commit)
	}
	fmt.Fprintf(w, ", %s", r.Machine)
	if r.Load != "" {
		fmt.Fprintf(w, ", load average %s at the start", r.Load)
	}
	fmt.Fprintln(w)
	if r.House != nil {
		fmt.Fprintf(w, "house: %d days, %s readings, written in %.1f s (%s MB of CSV)\n",
			r.Days, thousands(int(r.House.Readings)), r.HouseSeconds, thousands(int(r.House.Bytes/1e6)))
	}
	if r.Import != nil {
		fmt.Fprintf(w, "climated import: %.1f s, %s rows/s, database %s MB; serving after %.1f s, idle after %.0f s more\n",
			r.Import.Seconds, thousands(int(r.Import.PerSec)), thousands(int(r.Import.DBBytes/1e6)), r.StartSeconds, r.SettleSeconds)
	}
	fmt.Fprintln(w)
}

func goalWords(goalMS float64) string { return fmt.Sprintf("%g ms", goalMS) }

// millis writes a time in ms with two significant decimals below 10 ms.
func millis(v float64) string {
	switch {
	case v < 10:
		return fmt.Sprintf("%.2f", v)
	case v < 100:
		return fmt.Sprintf("%.1f", v)
	}
	return thousands(int(v + 0.5))
}

// thousands writes n with commas between thousands.
func thousands(n int) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + thousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
