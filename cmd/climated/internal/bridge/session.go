package bridge

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// replayPrefix marks the ids of requests the bridge sends itself.
const replayPrefix = "climated-bridge-"

// upstream is one session with the hub and the goroutines that read it.
type upstream struct {
	conn      sdk.Connection
	ctx       context.Context // ends with the session
	cancel    context.CancelFunc
	done      chan struct{} // closed when its reader has stopped
	wg        sync.WaitGroup
	listening atomic.Bool // its event stream is open
}

func (u *upstream) close() {
	u.cancel()
	u.conn.Close() // DELETE of the session, unless the hub already forgot it
	u.wg.Wait()
}

// connect opens the first session. Nothing goes over the network until
// the client's initialize does.
func (b *bridge) connect(ctx context.Context) error {
	up, err := b.open(ctx)
	if err != nil {
		return err
	}
	b.use(up)
	return nil
}

// open makes a connection and starts copying what the hub sends.
func (b *bridge) open(ctx context.Context) (*upstream, error) {
	// MaxRetries -1: a broken response stream is not resumed on the same
	// session; it fails the session, and a new one replaces it (reconnect),
	// which also covers a hub that restarted and forgot the old one.
	conn, err := (&sdk.StreamableClientTransport{Endpoint: b.url, HTTPClient: b.http, MaxRetries: -1}).Connect(ctx)
	if err != nil {
		return nil, fmt.Errorf("connect to %s: %w", b.url, err)
	}
	uctx, cancel := context.WithCancel(ctx)
	up := &upstream{conn: conn, ctx: uctx, cancel: cancel, done: make(chan struct{})}
	up.wg.Add(1)
	go func() {
		defer up.wg.Done()
		b.fromHub(uctx, up)
	}()
	return up, nil
}

// fromHub copies the hub's messages on one session to the client. When
// the session breaks (the hub restarted), it asks for a new one.
func (b *bridge) fromHub(ctx context.Context, up *upstream) {
	defer close(up.done)
	for {
		msg, err := up.conn.Read(ctx)
		if err != nil {
			if ctx.Err() == nil {
				b.log.Warn("the hub's session ended: starting a new one", "error", err)
				b.reconnects.Go(func() { b.reconnect(up) })
			}
			return
		}
		b.afterHub(up, msg)
		b.toClient(ctx, msg)
	}
}

// afterHub notes the answer to the client's initialize: its protocol
// version goes into every later request.
func (b *bridge) afterHub(up *upstream, msg jsonrpc.Message) {
	resp, ok := msg.(*jsonrpc.Response)
	if !ok || resp.Error != nil {
		return
	}
	b.mu.Lock()
	isInit := b.init != nil && b.init.ID == resp.ID
	b.mu.Unlock()
	if isInit {
		v := b.setVersion(resp.Result)
		b.log.Info("session with the hub", "session", up.conn.SessionID(), "protocol", v)
	}
}

func (b *bridge) setVersion(result json.RawMessage) string {
	var r struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if json.Unmarshal(result, &r) == nil && r.ProtocolVersion != "" {
		b.headers.version.Store(&r.ProtocolVersion)
	}
	return r.ProtocolVersion
}

// reconnect replaces the session old with a new one, trying until the hub
// answers or ctx ends: the client's initialize again, initialized, its
// log level and its subscriptions. Calls the old session took and never
// answered get an error, so the client asks again rather than waits for
// ever. Several callers may see the same failure; the first does the work.
func (b *bridge) reconnect(old *upstream) error {
	ctx := b.ctx // not the old session's, which ends here
	b.reconnectMu.Lock()
	defer b.reconnectMu.Unlock()
	if b.current() != old {
		return nil
	}
	old.close()
	b.failPending(ctx)
	delay := bridgeBackoffMin
	for attempt := 1; ; attempt++ {
		up, err := b.open(ctx)
		if err == nil {
			err = b.replay(ctx, up)
			if err == nil {
				b.use(up)
				b.log.Info("new session with the hub", "session", up.conn.SessionID(), "attempts", attempt)
				return nil
			}
			if !hubGone(err) {
				// The hub is back but refuses (a new token, say): waiting
				// would hold the client's calls for ever. They go to this
				// connection and get the hub's answer instead.
				b.log.Error("the restarted hub refuses the session", "error", err)
				b.use(up)
				return nil
			}
			up.close()
		}
		if attempt == 1 || attempt%20 == 0 {
			b.log.Warn("the hub does not answer yet: trying again", "url", b.url, "attempt", attempt, "error", err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(delay):
		}
		delay = min(2*delay, bridgeBackoffMax)
	}
}

// failPending answers the calls the old session took and never answered.
func (b *bridge) failPending(ctx context.Context) {
	b.mu.Lock()
	var lost []jsonrpc.ID
	for id, sent := range b.pending {
		if sent {
			lost = append(lost, id)
		}
	}
	b.mu.Unlock()
	for _, id := range lost {
		b.answer(ctx, id, jsonrpc.CodeInternalError, "the hub restarted before it answered: ask again")
		b.clearPending(id) // once answered, for drain
	}
}

// replay brings a new session to where the client's was.
func (b *bridge) replay(ctx context.Context, up *upstream) error {
	b.mu.Lock()
	init, level := b.init, b.level
	subs := make([]json.RawMessage, 0, len(b.subs))
	for _, p := range b.subs {
		subs = append(subs, p)
	}
	b.mu.Unlock()
	if init == nil {
		return nil // the client has not initialized yet: nothing to restore
	}
	result, err := b.call(ctx, up, "initialize", init.Params)
	if err != nil {
		return err
	}
	b.setVersion(result)
	if err := up.conn.Write(ctx, &jsonrpc.Request{Method: "notifications/initialized", Params: json.RawMessage("{}")}); err != nil {
		return err
	}
	b.listen(up)
	if level != nil {
		if _, err := b.call(ctx, up, "logging/setLevel", level); err != nil {
			return err
		}
	}
	for _, p := range subs {
		if _, err := b.call(ctx, up, "resources/subscribe", p); err != nil {
			// A zone gone from the restarted hub must not keep the
			// client from the rest.
			b.log.Warn("subscribing again on a new session", "params", string(p), "error", err)
		}
	}
	b.announceLists(ctx, result)
	return nil
}

// call sends a request of the bridge's own and waits for its answer,
// which toClient hands over instead of passing it on.
func (b *bridge) call(ctx context.Context, up *upstream, method string, params json.RawMessage) (json.RawMessage, error) {
	answer := make(chan *jsonrpc.Response, 1)
	b.mu.Lock()
	b.replayID++
	id, err := jsonrpc.MakeID(replayPrefix + strconv.Itoa(b.replayID))
	b.waiters[id] = answer
	b.mu.Unlock()
	defer func() {
		b.mu.Lock()
		delete(b.waiters, id)
		b.mu.Unlock()
	}()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, replayTimeout)
	defer cancel()
	if err := up.conn.Write(ctx, &jsonrpc.Request{ID: id, Method: method, Params: params}); err != nil {
		return nil, fmt.Errorf("%s on a new session: %w", method, err)
	}
	select {
	case resp := <-answer:
		if resp.Error != nil {
			return nil, fmt.Errorf("%s on a new session: %w", method, resp.Error)
		}
		return resp.Result, nil
	case <-up.done:
		return nil, fmt.Errorf("%s on a new session: the session ended: %w", method, io.ErrUnexpectedEOF)
	case <-ctx.Done():
		return nil, fmt.Errorf("%s on a new session: no answer: %w", method, ctx.Err())
	}
}

// replayTimeout bounds each request of a replay: a hub that takes longer
// is treated as not up yet.
const replayTimeout = 10 * time.Second

// announceLists tells the client that the restarted hub's tools,
// resources and prompts may differ from what it listed before, for each
// list the hub says can change, so that the client asks again.
func (b *bridge) announceLists(ctx context.Context, initResult json.RawMessage) {
	var r struct {
		Capabilities map[string]struct {
			ListChanged bool `json:"listChanged"`
		} `json:"capabilities"`
	}
	if json.Unmarshal(initResult, &r) != nil {
		return
	}
	for _, list := range []string{"tools", "resources", "prompts"} {
		if r.Capabilities[list].ListChanged {
			b.toClient(ctx, &jsonrpc.Request{Method: "notifications/" + list + "/list_changed", Params: json.RawMessage("{}")})
		}
	}
}

func (b *bridge) use(up *upstream) {
	b.mu.Lock()
	b.up = up
	b.mu.Unlock()
}
