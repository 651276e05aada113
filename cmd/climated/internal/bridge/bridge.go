package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/cmd/climated/internal/stdio"
)

// Options configure climated mcp --remote.
type Options struct {
	URL       string
	TokenFile string
	Log       *slog.Logger
}

// Run is climated mcp --remote URL: a desktop client that only
// launches local commands talks MCP on this process's stdin and stdout,
// and every message is copied, as it is, to and from the hub's Streamable
// HTTP endpoint. Both ends are the go-sdk's own connections (IOTransport,
// StreamableClientTransport); the bridge adds what a session needs that
// the SDK leaves to its Client: the event stream for notifications, and a
// new session when the hub restarts.
func Run(ctx context.Context, opts Options, stdin io.Reader, stdout io.Writer) error {
	u, err := ParseRemote(opts.URL)
	if err != nil {
		return err
	}
	token, err := bridgeToken(opts.TokenFile)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := &stdio.LockedWriter{W: stdout}
	local, err := (&sdk.IOTransport{Reader: io.NopCloser(stdio.NewFilter(stdin, out, opts.Log)), Writer: stdio.NopWriteCloser{Writer: out}}).Connect(ctx)
	if err != nil {
		return err
	}
	defer local.Close()
	headers := &hubHeaders{token: token, next: http.DefaultTransport}
	b := &bridge{
		ctx:      ctx,
		url:      u.String(),
		log:      opts.Log,
		local:    local,
		headers:  headers,
		http:     &http.Client{Transport: headers},
		pending:  map[jsonrpc.ID]bool{},
		subs:     map[string]json.RawMessage{},
		waiters:  map[jsonrpc.ID]chan *jsonrpc.Response{},
		answered: make(chan struct{}, 1),
	}
	b.log.Info("bridging stdio to the hub", "url", b.url, "token", token != "")
	if err := b.connect(ctx); err != nil {
		return err
	}
	err = b.fromClient(ctx)
	if errors.Is(err, io.EOF) {
		// The calls read before the end of input are answered first, as
		// climated mcp does (mcp/transport/stdiodrain.go).
		b.drain(ctx, drainWait)
	}
	// Stdin ended (or a signal): reconnects stop with ctx, then the
	// session is closed, which frees it on the hub.
	cancel()
	b.reconnects.Wait()
	b.current().close()
	if errors.Is(err, io.EOF) || errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// bridge holds what it must remember to start a session again: the
// client's initialize, its log level and its subscriptions.
type bridge struct {
	ctx     context.Context // the bridge's life: until stdin ends
	url     string
	log     *slog.Logger
	local   sdk.Connection
	headers *hubHeaders
	http    *http.Client

	// reconnectMu is held while a new session is made: the client's
	// messages wait for it rather than go to a dead one.
	reconnectMu sync.Mutex
	reconnects  sync.WaitGroup // reconnects started by the readers

	mu       sync.Mutex
	up       *upstream
	pending  map[jsonrpc.ID]bool // the client's calls: true once sent to the current session
	init     *jsonrpc.Request    // the client's initialize, replayed on a new session
	level    json.RawMessage     // logging/setLevel params, replayed
	subs     map[string]json.RawMessage
	replayID int
	waiters  map[jsonrpc.ID]chan *jsonrpc.Response // the bridge's own calls
	answered chan struct{}                         // a call of the client's was answered (drain)
}

func (b *bridge) current() *upstream {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.up
}

// fromClient copies the client's messages to the hub until stdin ends.
func (b *bridge) fromClient(ctx context.Context) error {
	for {
		msg, err := b.local.Read(ctx)
		if err != nil {
			return err
		}
		// The bridge keeps a session with the hub (it starts a new one when
		// the hub restarts), so it speaks the protocols before 2026-07-28,
		// which has none: server/discover is not forwarded, and its client
		// falls back to initialize.
		if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() && req.Method == "server/discover" {
			b.answer(ctx, req.ID, jsonrpc.CodeMethodNotFound, "server/discover: the bridge serves protocol 2025-11-25 and older; use initialize")
			continue
		}
		b.note(msg)
		if err := b.send(ctx, msg); err != nil {
			return err
		}
		if req, ok := msg.(*jsonrpc.Request); ok && req.Method == "notifications/initialized" {
			b.listen(b.current())
		}
	}
}

// note remembers what a new session will need.
func (b *bridge) note(msg jsonrpc.Message) {
	req, ok := msg.(*jsonrpc.Request)
	if !ok {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	switch req.Method {
	case "initialize":
		b.init = req
	case "logging/setLevel":
		b.level = req.Params
	case "resources/subscribe", "resources/unsubscribe":
		var p struct {
			URI string `json:"uri"`
		}
		if json.Unmarshal(req.Params, &p) == nil && p.URI != "" {
			if req.Method == "resources/subscribe" {
				b.subs[p.URI] = req.Params
			} else {
				delete(b.subs, p.URI)
			}
		}
	}
}

// send writes msg to the hub. A hub that is gone (restarted, unreachable)
// never saw the message, so it is sent again on a new session; any other
// refusal of a call is answered to the client with what the hub said.
func (b *bridge) send(ctx context.Context, msg jsonrpc.Message) error {
	req, isCall := msg.(*jsonrpc.Request)
	if !isCall || !req.IsCall() {
		req = nil
	}
	for {
		up, err := b.write(ctx, msg, req)
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		// Before the client has a session there is nothing to start
		// again: the hub is down, and the client hears so at once.
		if !hubGone(err) || !b.initialized() || (req != nil && req.Method == "initialize") {
			b.refused(ctx, req, err)
			if req != nil {
				b.clearPending(req.ID) // answered
			}
			return nil
		}
		b.log.Warn("the hub is gone: starting a new session", "error", err)
		if err := b.reconnect(up); err != nil {
			return err
		}
	}
}

// write sends msg on the current session, keeping the call req (nil for
// a notification or an answer) pending while it is written and once it
// is sent. Holding reconnectMu, a write never races a reconnect: the call
// is either sent before the old session's calls are failed, or sent to
// the new session.
func (b *bridge) write(ctx context.Context, msg jsonrpc.Message, req *jsonrpc.Request) (*upstream, error) {
	b.reconnectMu.Lock()
	defer b.reconnectMu.Unlock()
	up := b.current()
	if req != nil {
		b.setPending(req.ID, false, true)
	}
	err := up.conn.Write(ctx, msg)
	if req != nil && err == nil {
		b.setPending(req.ID, true, false)
	}
	// Unsent, it stays pending (not sent) until send answers it or
	// sends it again.
	return up, err
}

// refused logs a message the hub refused and answers the call req (if
// it is one) with what the hub said.
func (b *bridge) refused(ctx context.Context, req *jsonrpc.Request, err error) {
	b.log.Warn("the hub refused a message", "error", err)
	if req == nil {
		return
	}
	if req.Method == "initialize" {
		b.forgetInit(req.ID) // nothing to replay on a new session
	}
	msg := fmt.Sprintf("the hub at %s: %v", b.url, err)
	if fix := b.headers.tokenFix(); fix != "" {
		msg += ": " + fix
	}
	b.answer(ctx, req.ID, jsonrpc.CodeInternalError, msg)
}

func (b *bridge) initialized() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.init != nil
}

func (b *bridge) forgetInit(id jsonrpc.ID) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.init != nil && b.init.ID == id {
		b.init = nil
	}
}

func (b *bridge) setPending(id jsonrpc.ID, sent, add bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.pending[id]; ok || add {
		b.pending[id] = sent
	}
}

func (b *bridge) clearPending(id jsonrpc.ID) {
	b.mu.Lock()
	delete(b.pending, id)
	b.mu.Unlock()
	select {
	case b.answered <- struct{}{}:
	default:
	}
}

// drainWait bounds the wait at the end of input for the answers still
// due: a hub that never answers must not keep the bridge alive for ever.
const drainWait = 30 * time.Second

// drain waits until every call of the client's has its answer, at most
// wait, or until ctx ends (a signal).
func (b *bridge) drain(ctx context.Context, wait time.Duration) {
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	for {
		b.mu.Lock()
		left := len(b.pending)
		b.mu.Unlock()
		if left == 0 {
			return
		}
		select {
		case <-b.answered:
		case <-ctx.Done():
			return
		case <-deadline.C:
			b.log.Warn("end of input: calls still unanswered", "calls", left, "waited", wait)
			return
		}
	}
}

// toClient passes a message from the hub on, dropping the answers to the
// bridge's own replayed requests.
func (b *bridge) toClient(ctx context.Context, msg jsonrpc.Message) {
	if resp, ok := msg.(*jsonrpc.Response); ok {
		b.mu.Lock()
		w, ours := b.waiters[resp.ID]
		b.mu.Unlock()
		if ours {
			w <- resp
			return
		}
		if s, ok := resp.ID.Raw().(string); ok && strings.HasPrefix(s, replayPrefix) {
			return // the answer to a replay that gave up waiting
		}
		// Written before it stops being pending: at the end of input,
		// drain waits for it and the bridge exits only once it is out.
		defer b.clearPending(resp.ID)
	}
	if err := b.local.Write(ctx, msg); err != nil && ctx.Err() == nil {
		b.log.Warn("write to the client", "error", err)
	}
}

// answer writes an error response for the client's call id.
func (b *bridge) answer(ctx context.Context, id jsonrpc.ID, code int64, msg string) {
	resp := &jsonrpc.Response{ID: id, Error: &jsonrpc.Error{Code: code, Message: msg}}
	if err := b.local.Write(ctx, resp); err != nil && ctx.Err() == nil {
		b.log.Warn("write to the client", "error", err)
	}
}

// hubGone: err means the message never reached a live session, so the
// same message can go to a new one. A 404 for the session and a refused
// or broken connection qualify; a 401 or a 400 do not.
func hubGone(err error) bool {
	var ne net.Error
	var ue *url.Error
	return errors.Is(err, sdk.ErrSessionMissing) || errors.As(err, &ne) || errors.As(err, &ue) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)
}

// backoff between attempts to reach a restarting hub.
const (
	bridgeBackoffMin = 200 * time.Millisecond
	bridgeBackoffMax = 5 * time.Second
)
