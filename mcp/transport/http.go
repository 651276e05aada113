package transport

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/climated/climated/internal/perclient"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Defaults for Options fields left zero.
const (
	DefaultSessionTimeout = 30 * time.Minute
	DefaultMaxBodyBytes   = 1 << 20
	// DefaultStreamWriteTimeout is how long one write to an event stream
	// may take. A client that stops reading fills the socket buffers and
	// blocks the write, and with it whatever writes to the stream (the
	// answers of its calls, the notifications to every session); past this
	// time the write fails and the stream, with all it held, ends.
	DefaultStreamWriteTimeout = 10 * time.Second
)

// sweepEvery is how often the sessions quiet for StreamlessTimeout are
// looked for (idle.go).
const sweepEvery = 30 * time.Second

// Options configure the HTTP transports; fields left zero (or negative)
// take their defaults.
type Options struct {
	SessionTimeout     time.Duration    // idle Streamable HTTP sessions end after this (DefaultSessionTimeout)
	StreamlessTimeout  time.Duration    // Streamable HTTP sessions with no stream and no request end after this (DefaultStreamlessTimeout)
	MaxBodyBytes       int64            // largest request body accepted (DefaultMaxBodyBytes)
	MaxSessions        int              // sessions and streams of all clients together at most (DefaultMaxSessions, share.go)
	MaxClientSessions  int              // sessions and streams of one client at most (DefaultMaxClientSessions)
	MaxInFlight        int              // calls in flight per session, queued SSE calls and batch members included (DefaultMaxInFlight)
	StreamWriteTimeout time.Duration    // time one write to an event stream may take (DefaultStreamWriteTimeout)
	GrantRecheck       time.Duration    // how often what OAuth tokens hold open is checked against their grants (DefaultGrantRecheck, grants.go)
	Now                func() time.Time // clock; nil means time.Now
	Logger             *slog.Logger     // the transports' own lines; nil discards
	SDKLogger          *slog.Logger     // given to the SDK's HTTP handlers; nil means SDKLogger(Logger, Now)
}

// setDefaults fills the fields left zero (or negative) with their defaults.
func (o *Options) setDefaults() {
	orDefault(&o.SessionTimeout, DefaultSessionTimeout)
	orDefault(&o.StreamlessTimeout, DefaultStreamlessTimeout)
	orDefault(&o.MaxBodyBytes, DefaultMaxBodyBytes)
	orDefault(&o.MaxSessions, DefaultMaxSessions)
	orDefault(&o.MaxClientSessions, DefaultMaxClientSessions)
	orDefault(&o.MaxInFlight, DefaultMaxInFlight)
	orDefault(&o.StreamWriteTimeout, DefaultStreamWriteTimeout)
	orDefault(&o.GrantRecheck, DefaultGrantRecheck)
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if o.SDKLogger == nil {
		o.SDKLogger = SDKLogger(o.Logger, o.Now)
	}
}

// orDefault sets *v to def when it is zero or negative.
func orDefault[T int | int64 | time.Duration](v *T, def T) {
	if *v <= 0 {
		*v = def
	}
}

// HTTP serves one go-sdk server over the HTTP transports, with what it
// holds open bounded per client and watched against its OAuth grants.
type HTTP struct {
	opts   Options
	server *sdk.Server // what every session is served by
	log    *slog.Logger
	sdkLog *slog.Logger // for the SDK's handlers: its routine INFO at DEBUG, its warnings rate-limited
	sse    *sseHandler
	calls  *callLimit
	book   *sessionBook
	holds  *perclient.Limit // sessions and streams per client (share.go)
	grants *grantWatch      // what OAuth tokens hold open, ended when they no longer hold (grants.go)
	stop   context.CancelFunc
	done   sync.WaitGroup // the sweep and the grant watch
}

// NewHTTP serves server over HTTP with opts (nil means defaults). Until
// ctx ends or Close, it ends the Streamable HTTP sessions quiet for
// StreamlessTimeout and watches what OAuth tokens hold open (WatchGrants).
func NewHTTP(ctx context.Context, server *sdk.Server, opts *Options) *HTTP {
	t := &HTTP{server: server}
	if opts != nil {
		t.opts = *opts
	}
	t.opts.setDefaults()
	t.log, t.sdkLog = t.opts.Logger, t.opts.SDKLogger
	t.calls = newCallLimit(t.opts.MaxInFlight)
	t.book = newSessionBook()
	t.holds = perclient.New(t.opts.MaxClientSessions, t.opts.MaxSessions)
	t.grants = newGrantWatch(t.opts.GrantRecheck, t.opts.Now)
	t.sse = newSSEHandler(server, t.opts.MaxBodyBytes, t.calls, t.log.With("transport", "sse"))
	ctx, t.stop = context.WithCancel(ctx)
	t.done.Add(2)
	go func() {
		defer t.done.Done()
		t.grants.run(ctx, t.log)
	}()
	go func() {
		defer t.done.Done()
		repeat(ctx, sweepEvery, nil, t.expireStreamless)
	}()
	return t
}

// repeat calls f every d, and at once when kicked, until ctx ends.
func repeat(ctx context.Context, d time.Duration, kick <-chan struct{}, f func()) {
	tick := time.NewTicker(d)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		case <-kick:
		}
		f()
	}
}

// Handler serves the MCP transports: /mcp (Streamable HTTP), GET /sse
// and POST /message (HTTP+SSE), with the sessions and streams of each
// client bounded (share.go). It checks neither Host, Origin nor a token:
// the hub's HTTP front mounts it behind those checks.
func (t *HTTP) Handler() http.Handler {
	mux := http.NewServeMux()
	streamable := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return t.server }, &sdk.StreamableHTTPOptions{
		SessionTimeout:      t.opts.SessionTimeout,
		MaxRequestBodyBytes: t.opts.MaxBodyBytes,
		Logger:              t.sdkLog.With("transport", "streamable"),
		// The front checks Host (and Origin and the token) for every
		// endpoint; the SDK's own loopback-only check would refuse a
		// token-holding client that names the hub by its network name.
		DisableLocalhostProtection: true,
	})
	mux.Handle("/mcp", t.streaming(t.streamableFront(t.trackSessions(streamable), t.statelessHandler())))
	mux.Handle("GET /sse", t.streaming(t.holdStream("sse", http.HandlerFunc(t.sse.serveStream))))
	mux.Handle("POST /message", http.HandlerFunc(t.sse.serveMessage))
	return mux
}

// Close stops the sweep and the grant watch and ends the open SSE
// streams; Streamable HTTP sessions end with the HTTP server's shutdown.
func (t *HTTP) Close() {
	t.stop()
	t.done.Wait()
	t.sse.closeAll()
}

// streaming lifts the server-wide deadlines from GETs: event streams that
// may legitimately stay open for long.
func (t *HTTP) streaming(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			w = t.liftDeadlines(w)
		}
		h.ServeHTTP(w, r)
	})
}
