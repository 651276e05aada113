package main

import (
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/cmd/climated/internal/doctor"
	"github.com/climated/climated/cmd/climated/internal/remotewrite"
	"github.com/climated/climated/internal/testutil"
)

// TestRemoteWriteV2FallsBackForV1Stores: a hub set to send remote write
// 2.0 to Debian's Prometheus and VictoriaMetrics, which take 1.0 only
// (and answer a 2.0 request 204 as if it were an empty 1.0 one), loses
// no sample: it sees that neither said how many samples it wrote, sends
// the same samples again in 1.0, and logs why and what to set; each
// store then holds every reading once, /healthz says 1.0, and climated
// doctor warns, with the fix.
func TestRemoteWriteV2FallsBackForV1Stores(t *testing.T) {
	t.Parallel()
	prom := startPrometheusWith(t, promBinary(t, "prometheus"), "global:\n  scrape_interval: 1m\n", "--web.enable-remote-write-receiver")
	vm := startVM(t, "", "")
	cfg := rwConfig(t, remotewrite.Config{URL: prom.base + "/api/v1/write", Protocol: remotewrite.Protocol2},
		remotewrite.Config{URL: vm.url() + "/api/v1/write", Protocol: remotewrite.Protocol2})
	var log testutil.Buffer
	h, _ := runHubLog(t, cfg, serveEnv{}, slog.New(slog.NewTextHandler(&log, nil)))
	base := time.Now().Add(-40 * time.Minute).Truncate(time.Minute)
	recordMinutes(t, h, base, 0, 20)
	waitRW(t, h, "sent", upToDate(40))
	checkMinutes(t, prom.rangeSamples(t, `climated_temperature_celsius{zone="Cabin"}[2h]`), prom.rangeSamples(t, `climated_rain_meters_total{zone="Cabin"}[2h]`), base, 20, 0)
	checkMinutes(t, vm.export(`climated_temperature_celsius{zone="Cabin"}`), vm.export(`climated_rain_meters_total{zone="Cabin"}`), base, 20, 0)
	said := log.String()
	for _, store := range cfg.RemoteWrite {
		n := 0
		for _, line := range strings.Split(said, "\n") {
			if strings.Contains(line, "took a 2.0 request as remote write 1.0") && strings.Contains(line, store.URL) &&
				strings.Contains(line, "set protocol: 1.0") && strings.Contains(line, "without saying how many it wrote") {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s: %d log lines of the fallback, want one with why and the fix:\n%s", store.URL, n, said)
		}
	}
	if f := doctorRemoteWrite(t, cfg); f.Status != doctor.StatusWarn || !strings.Contains(f.Fix, "set protocol: 1.0") {
		t.Errorf("doctor: %+v; want a warning that the store takes 1.0 only, and the fix", f)
	}
	health := string(hubGetAny(t, "http://"+h.Addr.String(), "/healthz"))
	if strings.Count(health, `"protocol":"1.0"`) != 2 {
		t.Errorf("/healthz: %s; want protocol 1.0 for both stores", health)
	}
}
