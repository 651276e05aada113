package transport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/mcp/transport/internal/wire"
)

// Bounds of one SSE session.
const (
	// DefaultSSEQueue is how many posted messages a session may have
	// waiting for the SDK to read them; a POST finding the queue full is
	// answered 429. Calls are bounded tighter by MaxInFlight; the queue
	// bounds notifications too.
	DefaultSSEQueue = 32
	// sseMaxProtocol is the first protocol revision the SSE transport does
	// not serve (2026-07-28 has no sessions).
	sseMaxProtocol = "2026-07-28"
)

// sseSession is one HTTP+SSE session, both the go-sdk Transport and the
// Connection it returns. It writes the stream itself so that it can give
// every call back to the limit when its answer is out, restore ids, and
// end a session whose client stops reading.
type sseSession struct {
	id       string
	user     string // who opened it (caller): only they may post to it
	endpoint string
	w        http.ResponseWriter
	rc       *http.ResponseController
	in       chan jsonrpc.Message
	rpc      *wire.Session // ids swapped, codes given (internal/wire)
	limit    *callLimit
	done     chan struct{}
	closing  sync.Once
	pending  atomic.Int64

	mu     sync.Mutex // guards writes to w and closed
	closed bool
}

var (
	_ sdk.Transport                = (*sseSession)(nil)
	_ sdk.Connection               = (*sseSession)(nil)
	_ sdk.ProtocolVersionSupporter = (*sseSession)(nil)
)

func newSSESession(id string, w http.ResponseWriter, limit *callLimit) *sseSession {
	return &sseSession{
		id: id, endpoint: "/message?" + sseSessionParam + "=" + id, w: w, rc: http.NewResponseController(w),
		in: make(chan jsonrpc.Message, DefaultSSEQueue), rpc: &wire.Session{}, limit: limit,
		done: make(chan struct{}),
	}
}

// limitKey is the session's key in the call limit, apart from Streamable
// HTTP session ids.
func (s *sseSession) limitKey() string { return "sse:" + s.id }

// Connect sends the endpoint event that tells the client where to POST.
func (s *sseSession) Connect(context.Context) (sdk.Connection, error) {
	if err := s.event("endpoint", []byte(s.endpoint), false); err != nil {
		return nil, fmt.Errorf("send endpoint event: %w", err)
	}
	return s, nil
}

func (s *sseSession) SupportsProtocolVersion(v string) bool { return v < sseMaxProtocol }

func (s *sseSession) SessionID() string { return "" }

func (s *sseSession) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case msg := <-s.in:
		return msg, nil
	case <-s.done:
		return nil, io.EOF
	}
}

// Write sends msg as a message event, in its wire form (wire.Session.Out);
// an answer gives its call back to the limit.
func (s *sseSession) Write(ctx context.Context, msg jsonrpc.Message) error {
	_, answer := msg.(*jsonrpc.Response)
	data, err := s.rpc.Out(msg)
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		if answer {
			s.answered()
		}
		return err
	}
	return s.event("message", data, answer)
}

// Why a posted message was not queued.
var (
	errSessionEnded = errors.New("the session has ended: open a new one with GET /sse")
	errQueueFull    = fmt.Errorf("this session has %d messages waiting to be read: wait for answers before sending more", DefaultSSEQueue)
)

// accept queues a posted call or notification for the SDK, without
// waiting: a full queue is the client's to wait for.
func (s *sseSession) accept(msg jsonrpc.Message, call bool) error {
	select {
	case <-s.done:
		return errSessionEnded
	default:
	}
	if call {
		s.pending.Add(1)
	}
	select {
	case s.in <- msg:
		return nil
	default:
		if call {
			s.pending.Add(-1)
		}
		return errQueueFull
	}
}

func (s *sseSession) answered() {
	if s.pending.Add(-1) >= 0 {
		s.limit.give(s.limitKey(), 1)
	} else {
		s.pending.Add(1) // an answer this session did not count (ours)
	}
}

// event writes one server-sent event; w is a deadlineWriter, so a client
// that stops reading ends the session after StreamWriteTimeout. An answer
// gives its call back once written and before the flush that lets the
// client see it: a client reading an answer finds its slot free, and a
// client that does not read holds at most its limit plus this one.
func (s *sseSession) event(name string, data []byte, answer bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer func() {
		if answer { // not given back yet
			s.answered()
		}
	}()
	if s.closed {
		return io.EOF
	}
	buf := make([]byte, 0, len(name)+len(data)+16)
	buf = append(append(append(append(buf, "event: "...), name...), "\ndata: "...), data...)
	buf = append(buf, "\n\n"...)
	_, err := s.w.Write(buf)
	if answer {
		s.answered()
		answer = false
	}
	if err != nil {
		s.closeLocked()
		return fmt.Errorf("write %s event: %w", name, err)
	}
	if err := s.rc.Flush(); err != nil {
		s.closeLocked()
		return fmt.Errorf("flush %s event: %w", name, err)
	}
	return nil
}

// Close ends the session; the stream handler returns when it sees done.
func (s *sseSession) Close() error {
	s.closing.Do(func() { close(s.done) })
	return nil
}

func (s *sseSession) closeLocked() {
	s.closing.Do(func() { close(s.done) })
}

// finish is called by the stream handler before it returns: no write may
// touch the response after that. A write blocked on a client that does not
// read is cut short first.
func (s *sseSession) finish() {
	s.Close()
	_ = s.rc.SetWriteDeadline(time.Now())
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	if n := s.pending.Swap(0); n > 0 {
		s.limit.give(s.limitKey(), int(n))
	}
}
