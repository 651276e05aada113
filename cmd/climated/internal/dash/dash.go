package dash

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/climated/climated/cmd/climated/internal/front"
	"github.com/climated/climated/internal/perclient"
	"github.com/climated/climated/sensors"
)

// Defaults of the bounds on live streams.
const (
	// DefaultMaxStreams is how many dashboard pages may follow the house
	// at once, from all addresses together: a house has a few screens
	// and phones, and each stream costs a goroutine and a state encoded
	// per change. Past it the address with most streams loses its oldest
	// (events.go).
	DefaultMaxStreams = 16
	// DefaultMaxClientStreams is one address's share of them: more than
	// the tabs one browser can keep streaming (six connections per host
	// over HTTP/1.1, each stream holding one), and half the ceiling, so
	// one address never takes every stream. Past it the address loses
	// its own oldest.
	DefaultMaxClientStreams = 8
	// DefaultWriteTimeout bounds the writing of one event: a client that
	// does not take it in that time is dropped.
	DefaultWriteTimeout = 10 * time.Second
	// DefaultKeepAlive is how often a quiet stream gets a comment, and a
	// fresh zone status (zones go stale without new readings).
	DefaultKeepAlive = 20 * time.Second
	// DefaultSessionTTL is how long a login lasts.
	DefaultSessionTTL = 30 * 24 * time.Hour
)

// Options configure a Handler; the zero value gives the defaults.
type Options struct {
	Simulated bool // the data comes from the demo house: the page says so
	// SimulatedNow, when set, says it as it stands (a reload may start
	// or stop the demo house), in place of Simulated.
	SimulatedNow   func() bool
	Token          string   // the hub's token; empty: loopback only
	AllowedHosts   []string // Host names accepted besides loopback ones (as mcp.Options)
	AllowedOrigins []string // other origins whose pages may call the dashboard
	// TrustForwardedProto marks the cookie Secure when X-Forwarded-Proto
	// says https: set it only behind a TLS proxy that sets that header.
	TrustForwardedProto bool
	// IsLoopback says whether a remote address (an IP, no port) is on this
	// machine; nil means a loopback address (tests use it to play a remote client).
	IsLoopback func(ip string) bool
	// Proxied: the world may reach the hub through a proxy on this
	// machine (public_url is set), which may pass requests on from
	// loopback with a loopback Host (nginx's proxy_pass does by default):
	// loopback is then no sign of a local user, and every browser logs in.
	Proxied          bool
	MaxStreams       int // live streams of all addresses together (DefaultMaxStreams)
	MaxClientStreams int // live streams of one address (DefaultMaxClientStreams)
	WriteTimeout     time.Duration
	KeepAlive        time.Duration
	SessionTTL       time.Duration
	Now              func() time.Time
	Logger           *slog.Logger
	// Apps, when set (the hub has OAuth on), adds the connected apps to
	// the page, listed at AppsPath and revoked at RevokePath (apps.go).
	Apps Apps
}

// Handler serves the dashboard: the page and its assets, /dash/state,
// /dash/history, /dash/events and /dash/login, and the connected apps
// when Options.Apps is set. Mount it at its Patterns in the hub's mux.
type Handler struct {
	src       Source
	opts      Options
	log       *slog.Logger
	assets    map[string]*asset
	units     map[string]unitInfo
	order     []string // the measurements in the catalogue's order
	mux       *http.ServeMux
	protected http.Handler
	guesses   *perclient.Tries // wrong tokens, per source and in all (auth_limit.go)
	checks    *front.Checks

	streams *perclient.Limit // live streams per address (events.go)

	mu      sync.Mutex
	changed chan struct{} // closed and replaced on every change
}

// unitInfo is what the page needs to know of a measurement.
type unitInfo struct {
	Unit     string `json:"unit"`
	Decimals int    `json:"decimals"`
	Kind     string `json:"kind"` // gauge, amount, direction, health
	Label    string `json:"label"`
}

// New returns the dashboard of src; nil opts means defaults.
func New(src Source, opts *Options) (*Handler, error) {
	h := &Handler{src: src, changed: make(chan struct{}), units: units(), order: order(), guesses: newGuesses()}
	if opts != nil {
		h.opts = *opts
	}
	h.defaults()
	h.log = h.opts.Logger
	h.streams = perclient.New(h.opts.MaxClientStreams, h.opts.MaxStreams)
	var err error
	if h.assets, err = loadAssets(); err != nil {
		return nil, err
	}
	h.mux = http.NewServeMux()
	h.mux.HandleFunc("GET /{$}", h.serveAsset("index.html"))
	h.mux.HandleFunc("GET /dash/static/{file...}", h.serveStatic)
	h.mux.HandleFunc("GET /dash/state", h.serveState)
	h.mux.HandleFunc("GET /dash/history", h.serveHistory)
	h.mux.HandleFunc("GET /dash/events", h.serveEvents)
	if h.opts.Apps != nil {
		h.mux.HandleFunc("GET "+AppsPath, h.serveApps)
		h.mux.HandleFunc("POST "+RevokePath, h.serveRevoke)
	}
	h.checks = front.NewChecks(h.opts.Token, h.opts.AllowedHosts, h.opts.AllowedOrigins)
	h.protected = h.Protect(h.mux)
	src.OnChange(h.notify)
	return h, nil
}

// simulated says whether the data comes from the demo house, as it
// stands.
func (h *Handler) simulated() bool {
	if h.opts.SimulatedNow != nil {
		return h.opts.SimulatedNow()
	}
	return h.opts.Simulated
}

func (h *Handler) defaults() {
	o := &h.opts
	if o.MaxStreams <= 0 {
		o.MaxStreams = DefaultMaxStreams
	}
	if o.MaxClientStreams <= 0 {
		o.MaxClientStreams = DefaultMaxClientStreams
	}
	if o.WriteTimeout <= 0 {
		o.WriteTimeout = DefaultWriteTimeout
	}
	if o.KeepAlive <= 0 {
		o.KeepAlive = DefaultKeepAlive
	}
	if o.SessionTTL <= 0 {
		o.SessionTTL = DefaultSessionTTL
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.IsLoopback == nil {
		o.IsLoopback = front.IsLoopback
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
}

// Patterns are the patterns of http.ServeMux the dashboard serves, for
// the hub's mux to mount it at.
func (h *Handler) Patterns() []string {
	if h.opts.Apps != nil {
		return []string{"GET /{$}", "/dash/", AppsPath, RevokePath}
	}
	return []string{"GET /{$}", "/dash/"}
}

// ServeHTTP checks the request (Host, Origin, token or session) and serves it.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.protected.ServeHTTP(w, r)
}

func units() map[string]unitInfo {
	kinds := map[sensors.Kind]string{sensors.Gauge: "gauge", sensors.Amount: "amount", sensors.Direction: "direction", sensors.Health: "health"}
	out := map[string]unitInfo{}
	for _, m := range sensors.Measurements() {
		info, _ := sensors.Lookup(m)
		out[string(m)] = unitInfo{Unit: info.Unit, Decimals: info.Decimals, Kind: kinds[info.Kind], Label: info.Description}
	}
	return out
}

// order lists the measurements as the catalogue does (temperature,
// humidity, CO2 … particles by size …): the order of a card's values.
func order() []string {
	var out []string
	for _, info := range sensors.Catalogue() {
		out = append(out, string(info.Name))
	}
	return out
}

// state is what /dash/state and every event carry; the units and the
// order only /dash/state.
type state struct {
	Simulated  bool                `json:"simulated"`
	Now        int64               `json:"now"`
	Climate    json.RawMessage     `json:"climate"`
	Zones      []Zone              `json:"zones"`
	Alerts     []Alert             `json:"alerts"`
	Thresholds []Threshold         `json:"thresholds"`
	Units      map[string]unitInfo `json:"units,omitempty"`
	Order      []string            `json:"order,omitempty"`
	Apps       bool                `json:"apps,omitempty"` // the page lists the connected apps (apps.go)
}

func (h *Handler) state(withUnits bool) []byte {
	st := state{Simulated: h.simulated(), Now: h.opts.Now().Unix(), Climate: h.src.Climate(), Zones: h.src.Zones()}
	if st.Zones == nil {
		st.Zones = []Zone{}
	}
	if a, ok := h.src.(Alerting); ok {
		st.Alerts = a.Alerts()
	}
	if st.Alerts == nil {
		st.Alerts = []Alert{}
	}
	if th, ok := h.src.(Thresholding); ok {
		st.Thresholds = th.Thresholds()
	}
	if st.Thresholds == nil {
		st.Thresholds = []Threshold{}
	}
	if withUnits {
		st.Units, st.Order, st.Apps = h.units, h.order, h.opts.Apps != nil
	}
	data, err := json.Marshal(st)
	if err != nil { // the structure is JSON already; a failure here is a bug
		h.log.Error("encode dashboard state", "err", err)
		return []byte("{}")
	}
	return data
}

func (h *Handler) serveState(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, r, h.state(true))
}
