package metrics

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/climated/climated/history"
	"github.com/climated/climated/history/hub"
	"github.com/climated/climated/mqtt/ingest"
	"github.com/climated/climated/sensors"
)

// Metrics are the hub's Prometheus metrics, on a registry of its own.
type Metrics struct {
	reg          *prometheus.Registry
	readings     *prometheus.CounterVec
	readErrors   *prometheus.CounterVec
	writes       prometheus.Histogram
	writeErrors  prometheus.Counter
	httpRequests *prometheus.CounterVec
	httpSeconds  *prometheus.HistogramVec

	mqttUp, mqttStats bool // their metrics are registered (WatchMQTT)
}

// New makes the metrics, the Go runtime's and the process's among them.
func New() *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry()}
	m.readings = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "climated_readings_total",
		Help: "Readings taken in, per source."}, []string{"source"})
	m.readErrors = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "climated_read_errors_total",
		Help: "Failed or stale reports, per source (sensor, device)."}, []string{"source"})
	m.writes = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "climated_history_write_seconds",
		Help: "Time of each history flush (one transaction).", Buckets: prometheus.ExponentialBuckets(0.0005, 2.5, 10)})
	m.writeErrors = prometheus.NewCounter(prometheus.CounterOpts{Name: "climated_history_write_errors_total",
		Help: "History flushes that failed (and will be retried)."})
	m.httpRequests = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "climated_http_requests_total",
		Help: "HTTP requests, per endpoint and status code."}, []string{"path", "code"})
	m.httpSeconds = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "climated_http_request_seconds",
		Help: "HTTP request latency per endpoint (event streams last as long as they are open).", Buckets: prometheus.ExponentialBuckets(0.0001, 4, 10)}, []string{"path"})
	m.reg.MustRegister(m.readings, m.readErrors, m.writes, m.writeErrors, m.httpRequests, m.httpSeconds,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// OnFlush feeds the history writer's timings in.
func (m *Metrics) OnFlush(d time.Duration, _ int, err error) {
	m.writes.Observe(d.Seconds())
	if err != nil {
		m.writeErrors.Inc()
	}
}

// Watch adds what is read at scrape time: source ages, zone ages, the
// database size and the MCP sessions.
func (m *Metrics) Watch(store *hub.Hub, sessions func() int) {
	m.reg.MustRegister(&stateCollector{store: store, db: store.Path()})
	m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "climated_history_refused_total",
		Help: "Readings the database refused for their own sake (a constraint): dropped and logged, the rest written."},
		func() float64 { return float64(store.Refused()) }))
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "climated_mcp_sessions",
		Help: "Open MCP sessions, all transports."}, func() float64 { return float64(sessions()) }))
}

// MQTT is the MQTT state of the sources that run now, read at scrape
// time.
type MQTT interface {
	MQTTConnected() bool
	MQTTStats() ingest.Stats
}

// WatchMQTT registers the MQTT metrics the first time a set of sources
// (at start-up or after a reload) has them: the broker connection
// (connection) and the ingest's counters (stats). They follow run, the
// set that runs now.
func (m *Metrics) WatchMQTT(run MQTT, connection, stats bool) {
	if stats && !m.mqttStats {
		m.mqttStats = true
		m.reg.MustRegister(mqttCollector{run.MQTTStats})
	}
	if connection && !m.mqttUp {
		m.mqttUp = true
		m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "climated_mqtt_connected",
			Help: "1 while the MQTT broker is connected."}, func() float64 {
			if run.MQTTConnected() {
				return 1
			}
			return 0
		}))
	}
}

// Handler serves /metrics.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// Instrument counts and times every request, per known endpoint.
func (m *Metrics) Instrument(next http.Handler) http.Handler {
	known := map[string]bool{"/mcp": true, "/sse": true, "/message": true, "/api/climate": true, "/healthz": true, "/metrics": true}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path := r.URL.Path
		if !known[path] {
			path = "other"
		}
		rec := &statusRecorder{ResponseWriter: w, code: http.StatusOK}
		start := time.Now()
		next.ServeHTTP(rec, r)
		m.httpSeconds.WithLabelValues(path).Observe(time.Since(start).Seconds())
		m.httpRequests.WithLabelValues(path, strconv.Itoa(rec.code)).Inc()
	})
}

// statusRecorder keeps the status code and lets streaming through.
type statusRecorder struct {
	http.ResponseWriter
	code int
}

func (s *statusRecorder) WriteHeader(code int) {
	s.code = code
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

func (s *statusRecorder) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// stateCollector reads the hub's state when scraped.
type stateCollector struct {
	store *hub.Hub
	db    string
}

var (
	sourceAge = prometheus.NewDesc("climated_source_age_seconds", "Seconds since the source's latest good reading.", []string{"source"}, nil)
	zoneAge   = prometheus.NewDesc("climated_zone_age_seconds", "Seconds since the zone's latest reading.", []string{"zone"}, nil)
	dbSize    = prometheus.NewDesc("climated_database_bytes", "Size of the history database with its WAL.", nil, nil)
	diskFree  = prometheus.NewDesc("climated_disk_free_bytes", "Free space of the disk holding the history database, for the hub's user.", nil, nil)
)

func (c *stateCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- sourceAge
	ch <- zoneAge
	ch <- dbSize
	ch <- diskFree
}

func (c *stateCollector) Collect(ch chan<- prometheus.Metric) {
	now := time.Now()
	for _, st := range c.store.Statuses() {
		if !st.LastSeen.IsZero() {
			ch <- prometheus.MustNewConstMetric(sourceAge, prometheus.GaugeValue, now.Sub(st.LastSeen).Seconds(), st.Source)
		}
	}
	for _, z := range c.store.Describe() {
		if !utf8.ValidString(z.Name) {
			continue // see readingsCollector.Collect
		}
		ch <- prometheus.MustNewConstMetric(zoneAge, prometheus.GaugeValue, now.Sub(time.Unix(z.When, 0)).Seconds(), z.Name)
	}
	var size int64
	for _, f := range []string{c.db, c.db + "-wal"} {
		if fi, err := os.Stat(f); err == nil {
			size += fi.Size()
		}
	}
	ch <- prometheus.MustNewConstMetric(dbSize, prometheus.GaugeValue, float64(size))
	if free, _, err := history.DiskSpace(filepath.Dir(c.db)); err == nil {
		ch <- prometheus.MustNewConstMetric(diskFree, prometheus.GaugeValue, float64(free))
	}
}

// Count counts, as h records them, the readings sources hand the
// history (those it keeps: valid, and admitted) and the errors sources
// report.
func (m *Metrics) Count(h *hub.Hub) {
	h.OnRecord(func(_ context.Context, rs []sensors.Reading) {
		for _, r := range rs {
			m.readings.WithLabelValues(r.Source).Inc()
		}
	})
	h.OnReport(func(st sensors.Status) {
		if st.Err != nil {
			m.readErrors.WithLabelValues(st.Source).Inc()
		}
	})
}

// mqttCollector exposes the MQTT ingest's counters:
// climated_mqtt_messages_total{outcome}.
type mqttCollector struct{ stats func() ingest.Stats }

var mqttMessages = prometheus.NewDesc("climated_mqtt_messages_total",
	"MQTT messages and values by what became of them (received, oversized, queue_full, ignored, bad_payload, no_zone, replayed, decoded, bad_values, readings, sink_errors, redelivered).",
	[]string{"outcome"}, nil)

func (c mqttCollector) Describe(ch chan<- *prometheus.Desc) { ch <- mqttMessages }

func (c mqttCollector) Collect(ch chan<- prometheus.Metric) {
	st := c.stats()
	for outcome, v := range map[string]uint64{
		"received": st.Received, "oversized": st.Oversized, "queue_full": st.QueueFull, "ignored": st.Ignored,
		"bad_payload": st.BadPayload, "no_zone": st.NoZone, "replayed": st.Replayed, "decoded": st.Decoded,
		"bad_values": st.BadValues, "readings": st.Readings, "sink_errors": st.SinkErrors,
		"redelivered": st.Redelivered,
	} {
		ch <- prometheus.MustNewConstMetric(mqttMessages, prometheus.CounterValue, float64(v), outcome)
	}
}
