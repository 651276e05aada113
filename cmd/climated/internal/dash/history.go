package dash

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"
)

// chartRange is a span a chart offers, and whether it is read in local
// days (else at the finest step that fits the chart's width).
type chartRange struct {
	span time.Duration
	days bool
}

// ranges are the spans a chart offers. A year is read in local days, from
// the daily summaries.
var ranges = map[string]chartRange{
	"24h": {span: 24 * time.Hour}, "7d": {span: 7 * 24 * time.Hour}, "30d": {span: 30 * 24 * time.Hour},
	"1y": {span: 365 * 24 * time.Hour, days: true},
}

// Chart widths: a chart asks for no more points than it has pixels.
const (
	minPoints = 10
	maxPoints = 2000 // history.MaxPoints
)

// serveHistory answers /dash/history?zone=Z&m=M&range=24h&points=N.
func (h *Handler) serveHistory(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	rg, ok := ranges[q.Get("range")]
	if !ok {
		http.Error(w, "range must be one of 24h, 7d, 30d, 1y", http.StatusBadRequest)
		return
	}
	n, err := strconv.Atoi(q.Get("points"))
	if err != nil || n < minPoints || n > maxPoints {
		http.Error(w, "points must be a whole number from 10 to 2000 (the chart's width)", http.StatusBadRequest)
		return
	}
	if q.Get("zone") == "" || q.Get("m") == "" {
		http.Error(w, "zone and m (the measurement) are required", http.StatusBadRequest)
		return
	}
	to := h.opts.Now()
	res, err := h.src.Range(r.Context(), q.Get("zone"), q.Get("m"), to.Add(-rg.span), to, rg.days, n)
	if err != nil {
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	data, err := json.Marshal(res)
	if err != nil {
		h.log.Error("encode history", "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	writeJSON(w, r, data)
}
