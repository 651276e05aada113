package main

import (
	"database/sql"
	"encoding/csv"
	"fmt"
	"io"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"time"

	_ "modernc.org/sqlite"
)

type report struct {
	took                                       time.Duration
	published, stored, lost, duplicated, wrong int
	unacked, resent                            int
	lostRanges                                 []string // when the lost readings were published
	integrity                                  string
	rssStart, rssPeak, rssEnd                  int64
	gorStart, gorPeak, gorEnd                  int
	lines                                      int
	byMsg                                      map[string]int
	cpu                                        time.Duration
	starts, brokerRestarts                     int
	diskFull                                   []string
	calls, failed, notified, connects          int64
	sse                                        map[int]int64
}

// ok is the soak's goal: nothing lost or duplicated, a sound database.
func (r *report) ok() bool {
	return r.published > 0 && r.lost == 0 && r.duplicated == 0 && r.wrong == 0 && r.integrity == "ok"
}

func (r *report) print(w io.Writer) {
	mb := func(b int64) string { return fmt.Sprintf("%.1f MB", float64(b)/1e6) }
	hours := r.took.Hours()
	fmt.Fprintf(w, "soak: %s, hub started %d times, broker restarted %d times, disk full: %s\n", r.took.Round(time.Second), r.starts, r.brokerRestarts, strings.Join(r.diskFull, "; "))
	fmt.Fprintf(w, "readings: published %d (acknowledged by the broker), stored %d, lost %d, duplicated %d, wrong value %d; unacknowledged at the end %d, sent again %d\n",
		r.published, r.stored, r.lost, r.duplicated, r.wrong, r.unacked, r.resent)
	for _, l := range r.lostRanges {
		fmt.Fprintf(w, "  lost: %s\n", l)
	}
	fmt.Fprintf(w, "integrity_check: %s\n", r.integrity)
	fmt.Fprintf(w, "RSS: start %s, peak %s, end %s\n", mb(r.rssStart), mb(r.rssPeak), mb(r.rssEnd))
	fmt.Fprintf(w, "goroutines: start %d, peak %d, end %d\n", r.gorStart, r.gorPeak, r.gorEnd)
	fmt.Fprintf(w, "CPU: %s (%.1f %% of a core)\n", r.cpu.Round(time.Millisecond), 100*r.cpu.Seconds()/r.took.Seconds())
	fmt.Fprintf(w, "log lines: %d (%.0f an hour)\n", r.lines, float64(r.lines)/hours)
	type kv struct {
		k string
		v int
	}
	var msgs []kv
	for k, v := range r.byMsg {
		msgs = append(msgs, kv{k, v})
	}
	sort.Slice(msgs, func(i, j int) bool { return msgs[i].v > msgs[j].v || msgs[i].v == msgs[j].v && msgs[i].k < msgs[j].k })
	// Every warning and error, and the 15 commonest of the rest.
	shown := 0
	for _, m := range msgs {
		if !strings.HasPrefix(m.k, "WARN ") && !strings.HasPrefix(m.k, "ERROR ") {
			if shown == 15 {
				continue
			}
			shown++
		}
		fmt.Fprintf(w, "  %6d  %s\n", m.v, m.k)
	}
	fmt.Fprintf(w, "MCP: %d sessions opened, %d calls answered, %d failed (while the hub restarted), %d resource updates received\n", r.connects, r.calls, r.failed, r.notified)
	var codes []string
	for c, n := range r.sse {
		codes = append(codes, fmt.Sprintf("%d×%d", n, c))
	}
	sort.Strings(codes)
	fmt.Fprintf(w, "SSE client that never reads: POST answers %s\n", strings.Join(codes, ", "))
	verdict := "PASS"
	if !r.ok() {
		verdict = "FAIL"
	}
	fmt.Fprintf(w, "soak: %s (goal: 0 lost, 0 duplicated, integrity ok)\n", verdict)
}

// count compares what the hub stored with what was published, through
// climated export (the public way out of the history).
func (r *report) count(bin, db string, published map[reading]float64) error {
	out, err := exec.Command(bin, "export", "--db", db, "--measurement", "Temperature", "--from", "2000-01-01").Output()
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	rows, err := csv.NewReader(strings.NewReader(string(out))).ReadAll()
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	seen := map[string]map[float64]int{}
	stored := map[reading]bool{}
	for _, row := range rows[1:] { // time,zone,measurement,value,source
		if !strings.HasPrefix(row[1], "Soak") {
			continue
		}
		t, err1 := time.Parse(time.RFC3339, row[0])
		v, err2 := strconv.ParseFloat(row[3], 64)
		if err1 != nil || err2 != nil {
			return fmt.Errorf("export: bad row %v", row)
		}
		if seen[row[1]] == nil {
			seen[row[1]] = map[float64]int{}
		}
		seen[row[1]][v]++
		if want, ok := published[reading{row[1], t.Unix()}]; ok {
			stored[reading{row[1], t.Unix()}] = true
			r.stored++
			if want != v {
				r.wrong++
			}
		}
	}
	r.published = len(published)
	r.lost = r.published - r.stored
	r.lostRanges = lostRanges(published, stored)
	for _, vs := range seen {
		for _, n := range vs {
			r.duplicated += n - 1
		}
	}
	sdb, err := sql.Open("sqlite", "file:"+db+"?mode=ro")
	if err != nil {
		return err
	}
	defer sdb.Close()
	return sdb.QueryRow("PRAGMA integrity_check").Scan(&r.integrity)
}

// lostRanges says which seconds lost readings were published in, as runs
// of consecutive seconds with their count (at most 20 runs).
func lostRanges(published map[reading]float64, stored map[reading]bool) []string {
	perSecond := map[int64]int{}
	for r := range published {
		if !stored[r] {
			perSecond[r.when]++
		}
	}
	secs := make([]int64, 0, len(perSecond))
	for s := range perSecond {
		secs = append(secs, s)
	}
	sort.Slice(secs, func(i, j int) bool { return secs[i] < secs[j] })
	var out []string
	for i := 0; i < len(secs) && len(out) < 20; {
		j, n := i, perSecond[secs[i]]
		for j+1 < len(secs) && secs[j+1] == secs[j]+1 {
			j++
			n += perSecond[secs[j]]
		}
		out = append(out, fmt.Sprintf("%s to %s UTC: %d readings", time.Unix(secs[i], 0).UTC().Format("15:04:05"), time.Unix(secs[j], 0).UTC().Format("15:04:05"), n))
		i = j + 1
	}
	return out
}
