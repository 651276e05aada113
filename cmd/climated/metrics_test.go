package main

import (
	"io"
	"net/http"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
)

// metricValue finds one sample in Prometheus text, or -1.
func metricValue(text, sample string) float64 {
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(sample) + ` ([0-9.e+-]+)$`).FindStringSubmatch(text)
	if m == nil {
		return -1
	}
	v, _ := strconv.ParseFloat(m[1], 64)
	return v
}

func TestMetrics(t *testing.T) {
	cfg := demoConfig(t)
	cfg.Demo.Interval = time.Second
	h := startHub(t, cfg)
	base := "http://" + h.Addr.String()
	if resp, err := http.Get(base + "/api/climate"); err == nil {
		resp.Body.Close()
	}
	var text string
	if !testutil.Eventually(func() bool {
		resp, err := http.Get(base + "/metrics") // as Prometheus asks, without testutil.Do's JSON Accept
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		text = string(b)
		return metricValue(text, `climated_readings_total{source="demo/Indoor"}`) > 0 && metricValue(text, "climated_history_write_seconds_count") > 1
	}) {
		t.Fatalf("no live readings or writes counted:\n%s", text)
	}
	for sample, min := range map[string]float64{
		`climated_http_requests_total{code="200",path="/api/climate"}`: 1,
		`climated_zone_age_seconds{zone="Rain"}`:                       0,
		`climated_source_age_seconds{source="demo/Balcony"}`:           0,
		`climated_database_bytes`:                                      4096,
		`climated_mcp_sessions`:                                        0,
		`climated_history_write_errors_total`:                          0,
		`climated_history_refused_total`:                               0,
		`process_resident_memory_bytes`:                                1e6,
	} {
		if v := metricValue(text, sample); v < min {
			t.Errorf("%s = %v, want at least %v", sample, v, min)
		}
	}
}
