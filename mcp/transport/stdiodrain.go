package transport

import (
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/climated/climated/mcp/transport/internal/wire"
)

// The SDK's stdio transport ends the session as soon as its input ends,
// and the requests it has read but not yet answered go unanswered:
// `printf '…initialize…\n' | climated mcp` printed nothing. Stdio's input
// holds back the end of input until every request read has its answer
// (or was cancelled), for at most drainWait, so that a piped request or a
// script's last call is answered before the server exits.

// drainWait bounds the wait at the end of input for answers still due: a
// handler that never returns must not keep the process alive for ever.
const drainWait = 30 * time.Second

// inflight is the requests read from the client and not yet answered, by
// their id as the SDK sees it.
type inflight struct {
	mu   sync.Mutex
	ids  map[string]bool
	idle chan struct{} // closed once ids empties; nil while none is awaited
}

func idKey(id jsonrpc.ID) string { return fmt.Sprintf("%T:%v", id.Raw(), id.Raw()) }

// read notes what a message from the client means for the answers due: a
// request adds one, a cancellation takes its request off.
func (f *inflight) read(m wire.Message) {
	if m.IsCall() {
		if id, err := m.SDKID(); err == nil {
			f.mu.Lock()
			if f.ids == nil {
				f.ids = make(map[string]bool)
			}
			f.ids[idKey(id)] = true
			f.mu.Unlock()
		}
		return
	}
	if m.Method != "notifications/cancelled" {
		return
	}
	var p struct {
		Params struct {
			RequestID any `json:"requestId"`
		} `json:"params"`
	}
	if json.Unmarshal(m.Raw, &p) == nil {
		if id, err := jsonrpc.MakeID(p.Params.RequestID); err == nil {
			f.done(id)
		}
	}
}

// wrote notes a message of the SDK's: a response answers its request.
func (f *inflight) wrote(msg jsonrpc.Message) {
	if r, ok := msg.(*jsonrpc.Response); ok {
		f.done(r.ID)
	}
}

func (f *inflight) done(id jsonrpc.ID) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.ids, idKey(id))
	if len(f.ids) == 0 && f.idle != nil {
		close(f.idle)
		f.idle = nil
	}
}

// wait returns once no answer is due, or after d.
func (f *inflight) wait(d time.Duration) {
	f.mu.Lock()
	if len(f.ids) == 0 {
		f.mu.Unlock()
		return
	}
	if f.idle == nil {
		f.idle = make(chan struct{})
	}
	idle := f.idle
	f.mu.Unlock()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-idle:
	case <-t.C:
	}
}
