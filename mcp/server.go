package mcp

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/climated/climated/history"
	"github.com/climated/climated/history/climate"
	"github.com/climated/climated/mcp/transport"
	"github.com/climated/climated/sensors"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Defaults for Options fields left zero; those of the transports are
// package transport's.
const (
	DefaultStaleAfter = climate.DefaultStaleAfter
	DefaultGoneAfter  = 24 * time.Hour
)

// Hub is what the server needs of the house; hub.Hub (history/hub)
// provides it.
type Hub interface {
	// Snapshot is the get_climate structure as it stands, with its JSON.
	Snapshot() *climate.Snapshot
	// Describe lists the zones with their measurements and sources.
	Describe() []climate.ZoneInfo
	// Range and Daily read the recorded history.
	Range(ctx context.Context, q history.Query) (*history.Series, error)
	Daily(ctx context.Context, zone string, from, to time.Time) ([]history.Day, error)
	YearOf(ctx context.Context, zone string, year int) (history.Year, error)
	// Records reads a zone's records, or with since set those set since.
	Records(ctx context.Context, zone string, since time.Time) (*history.Records, error)
	// Statuses are the sources' latest reports (errors, last seen).
	Statuses() []sensors.Status
	// OnUpdate calls f after every batch of readings with the zones that
	// got them; f must not block.
	OnUpdate(f func(zones []string, added bool))
}

// Options configure a Server; nil means defaults.
type Options struct {
	Version   string   // reported to clients as the server version
	Zones     []string // zone names, named in the tool description
	Simulated bool     // the data comes from the demo house
	// SimulatedNow, when set, says it as it stands (a reload may start or
	// stop the demo house), in place of Simulated, for what is made per
	// request (prompts, the views' data) and get_climate's description
	// once Resimulate renews it; the instructions a session gets when it
	// starts say it as it stood when the server was made.
	SimulatedNow       func() bool
	SessionTimeout     time.Duration    // idle Streamable HTTP sessions end after this (transport.DefaultSessionTimeout)
	StreamlessTimeout  time.Duration    // Streamable HTTP sessions with no stream and no request end after this (transport.DefaultStreamlessTimeout)
	StaleAfter         time.Duration    // a zone silent this long is stale
	GoneAfter          time.Duration    // a zone silent this long leaves the resource list (DefaultGoneAfter)
	Location           *time.Location   // local time for "today" and daily summaries; nil means time.Local
	Now                func() time.Time // clock; nil means time.Now
	MaxBodyBytes       int64            // largest request body accepted (transport.DefaultMaxBodyBytes)
	MaxSessions        int              // sessions and streams of all clients together at most (transport.DefaultMaxSessions)
	MaxClientSessions  int              // sessions and streams of one client at most (transport.DefaultMaxClientSessions)
	MaxInFlight        int              // calls in flight per session, queued SSE calls and batch members included (transport.DefaultMaxInFlight)
	RequestTimeout     time.Duration    // time one MCP request may take (transport.DefaultRequestTimeout)
	StreamWriteTimeout time.Duration    // time one write to an event stream may take (transport.DefaultStreamWriteTimeout)
	GrantRecheck       time.Duration    // how often what OAuth tokens hold open is checked against their grants (transport.DefaultGrantRecheck)
	Alerts             Alerts           // the alert rules: tools, resources and report material; nil: none
	Logger             *slog.Logger     // nil discards
}

// Server is climated's MCP server and its HTTP transports.
type Server struct {
	opts Options
	log  *slog.Logger
	// sdkLog is for the go-sdk: its routine INFO at DEBUG, its warnings
	// rate-limited (transport.SDKLogger).
	sdkLog *slog.Logger
	hub    Hub
	mcp    *sdk.Server
	http   *transport.HTTP // the HTTP transports, serving mcp
	zones  *zoneResources
	// templates are the variables of each resource template the hub
	// registers (addTemplate): what completion completes.
	templates map[string][]string
	measures  measures // the house's measurements the tools name (measures.go)
	stop      context.CancelFunc
	done      chan struct{} // the watcher's end
}

// Grants is what the server's transports ask of the hub's authorization
// server (package oauth) while a session or stream opened with one of its
// tokens lasts.
type Grants = transport.Grants

// New builds the server; it serves nothing until its Handler is mounted or
// its MCP server is connected to a transport. Its watcher (notifications of
// new readings to subscribed clients) runs until ctx ends or Close, which
// waits for it.
func New(ctx context.Context, h Hub, opts *Options) *Server {
	s := &Server{hub: h}
	if opts != nil {
		s.opts = *opts
	}
	s.opts.setDefaults()
	s.log = s.opts.Logger
	if s.log == nil {
		s.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	// The caller's logger names the component already; a second
	// "component" would make two of them on every line.
	s.sdkLog = transport.SDKLogger(s.log, s.opts.Now)
	s.buildSDKServer()
	ctx, cancel := context.WithCancel(ctx)
	s.stop, s.done = cancel, make(chan struct{})
	s.http = transport.NewHTTP(ctx, s.mcp, s.transportOptions())
	// Registered before New returns, so no reading after it goes unnoticed.
	u := newUpdates()
	h.OnUpdate(u.push)
	go s.watch(ctx, u)
	return s
}

// transportOptions are what the HTTP transports take of the options.
func (s *Server) transportOptions() *transport.Options {
	return &transport.Options{
		SessionTimeout:     s.opts.SessionTimeout,
		StreamlessTimeout:  s.opts.StreamlessTimeout,
		MaxBodyBytes:       s.opts.MaxBodyBytes,
		MaxSessions:        s.opts.MaxSessions,
		MaxClientSessions:  s.opts.MaxClientSessions,
		MaxInFlight:        s.opts.MaxInFlight,
		StreamWriteTimeout: s.opts.StreamWriteTimeout,
		GrantRecheck:       s.opts.GrantRecheck,
		Now:                s.opts.Now,
		Logger:             s.log,
		SDKLogger:          s.sdkLog,
	}
}

// setDefaults fills the fields left zero (or negative) with their
// defaults; the transports' fields are package transport's to fill.
func (o *Options) setDefaults() {
	if o.Version == "" {
		o.Version = "dev"
	}
	orDefault(&o.StaleAfter, DefaultStaleAfter)
	orDefault(&o.GoneAfter, DefaultGoneAfter)
	if o.Location == nil {
		o.Location = time.Local
	}
	if o.Now == nil {
		o.Now = time.Now
	}
}

// orDefault sets *v to def when it is zero or negative.
func orDefault(v *time.Duration, def time.Duration) {
	if *v <= 0 {
		*v = def
	}
}

// buildSDKServer builds s.mcp, the go-sdk server, with climated's tools,
// resources and prompts, its middleware in front.
func (s *Server) buildSDKServer() {
	s.mcp = sdk.NewServer(&sdk.Implementation{
		Name:    "climated",
		Title:   "climated home-climate hub",
		Version: s.opts.Version,
	}, &sdk.ServerOptions{
		Instructions:       s.instructions(),
		Logger:             s.sdkLog,
		SubscribeHandler:   s.subscribe,
		UnsubscribeHandler: func(context.Context, *sdk.UnsubscribeRequest) error { return nil },
		CompletionHandler:  s.complete,
		Capabilities: &sdk.ServerCapabilities{
			Logging: &sdk.LoggingCapabilities{},
			// MCP Apps (apps.go). One answer for every client: a list
			// result never varies with the client's capabilities.
			Extensions: map[string]any{AppsExtension: map[string]any{}},
		},
	})
	s.mcp.AddReceivingMiddleware(transport.Guard(s.opts.RequestTimeout, s.log), s.checkScope, s.checkLogLevel)
	s.addClimateTool()
	s.addHistoryTools()
	s.addViews()
	s.addResources()
	s.addPrompts()
	s.addReportTool()
	s.addAlerts()
}

// simulated says whether the data comes from the demo house, as it
// stands.
func (s *Server) simulated() bool {
	if s.opts.SimulatedNow != nil {
		return s.opts.SimulatedNow()
	}
	return s.opts.Simulated
}

func (s *Server) instructions() string {
	text := "climated is a home-climate hub: it records the house's zone sensors (rooms, outdoors, rain gauge). " +
		"Call get_climate for the current temperature, humidity, CO2, noise, pressure, rain and sensor status of every zone. " +
		"Times are Unix seconds; the hub's time zone is " + s.timeZone() + ": give times to the user in that local time."
	if s.simulated() {
		text += " This hub runs its demo house: all values are SIMULATED, not measured; say so when you report them."
	}
	return text
}

// silent is how long zone z has gone without a reading; zones silent for
// StaleAfter are stale, for GoneAfter they leave the resource list.
func (s *Server) silent(z climate.ZoneInfo) time.Duration {
	return s.opts.Now().Sub(time.Unix(z.When, 0))
}

// Sessions counts the open MCP sessions, of every transport.
func (s *Server) Sessions() int {
	n := 0
	for range s.mcp.Sessions() {
		n++
	}
	return n
}

// MCP is the underlying go-sdk server, for transports other than HTTP.
func (s *Server) MCP() *sdk.Server { return s.mcp }

// Handler serves the MCP transports (transport.HTTP.Handler): /mcp
// (Streamable HTTP), GET /sse and POST /message (HTTP+SSE). It checks
// neither Host, Origin nor a token: the hub's HTTP front mounts it behind
// those checks.
func (s *Server) Handler() http.Handler { return s.http.Handler() }

// WatchGrants has the transports end the sessions and streams opened with
// g's tokens once they no longer hold; until it is called, none are
// watched.
func (s *Server) WatchGrants(g Grants) { s.http.WatchGrants(g) }

// RecheckGrants checks the grants at once, as after a revoke in this
// process.
func (s *Server) RecheckGrants() { s.http.RecheckGrants() }

// Close stops the server's watcher and its transports' and ends the open
// SSE streams; Streamable HTTP sessions end with the HTTP server's
// shutdown.
func (s *Server) Close() {
	s.stop()
	<-s.done
	s.http.Close()
}
