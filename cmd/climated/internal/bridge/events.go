package bridge

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/cmd/climated/internal/stdio"
)

// listen opens the session's event stream (GET on the endpoint), on
// which the hub sends what is not the answer to a call: resource updates,
// log messages, list changes. The SDK's connection opens it only when its
// own Client says the session is initialized, through a method outside
// its API, so the bridge opens it itself. When the stream ends it is
// opened again; a hub that no longer knows the session gets a new one.
func (b *bridge) listen(up *upstream) {
	if up.listening.Swap(true) {
		return // one stream a session, or every notification comes twice
	}
	ctx := up.ctx
	sid := up.conn.SessionID()
	up.wg.Add(1)
	go func() {
		defer up.wg.Done()
		lastID := ""
		for ctx.Err() == nil {
			resp, err := b.openEvents(ctx, sid, lastID)
			if ctx.Err() != nil {
				return
			}
			var refused *streamRefused
			if errors.As(err, &refused) {
				// Asking again would only be refused again: the session
				// goes on without notifications.
				b.log.Warn("the hub refuses the event stream: no notifications on this session", "error", err)
				return
			}
			if err != nil {
				b.log.Warn("the hub's event stream: starting a new session", "error", err)
				b.reconnects.Go(func() { b.reconnect(up) })
				return
			}
			if resp == nil {
				return // the hub has no event stream (405)
			}
			if lastID == "" {
				b.log.Info("receiving the hub's notifications", "session", sid)
			}
			lastID = b.readEvents(ctx, resp, lastID)
		}
	}()
}

// openEvents makes the GET; nil, nil means the hub offers no stream.
func (b *bridge) openEvents(ctx context.Context, sid, lastID string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "text/event-stream")
	if sid != "" {
		req.Header.Set("Mcp-Session-Id", sid)
	}
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := b.http.Do(req)
	if err != nil {
		return nil, err
	}
	switch resp.StatusCode {
	case http.StatusOK:
		return resp, nil
	case http.StatusMethodNotAllowed:
		resp.Body.Close()
		return nil, nil
	case http.StatusNotFound:
		resp.Body.Close()
		return nil, fmt.Errorf("GET %s: %s: %w", b.url, resp.Status, sdk.ErrSessionMissing)
	default:
		resp.Body.Close()
		return nil, &streamRefused{status: resp.Status}
	}
}

// streamRefused: the hub answered the GET with a status that a new
// session would get too.
type streamRefused struct{ status string }

func (e *streamRefused) Error() string { return "GET of the event stream: " + e.status }

// readEvents passes each event's JSON-RPC message to the client until the
// stream ends, and returns the last event id (to resume from).
func (b *bridge) readEvents(ctx context.Context, resp *http.Response, lastID string) string {
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 0, 64<<10), stdio.MaxLine)
	var data bytes.Buffer
	for sc.Scan() {
		line := sc.Bytes()
		switch {
		case len(line) == 0:
			if data.Len() > 0 {
				if msg, err := jsonrpc.DecodeMessage(data.Bytes()); err != nil {
					b.log.Warn("an event from the hub that is no JSON-RPC message", "error", err, "data", stdio.Excerpt(data.Bytes()))
				} else {
					b.toClient(ctx, msg)
				}
				data.Reset()
			}
		case bytes.HasPrefix(line, []byte("data:")):
			if data.Len() > 0 {
				data.WriteByte('\n')
			}
			data.Write(bytes.TrimPrefix(bytes.TrimPrefix(line, []byte("data:")), []byte(" ")))
		case bytes.HasPrefix(line, []byte("id:")):
			lastID = string(bytes.TrimSpace(line[3:]))
		}
	}
	// A stream the hub ends on purpose is opened again at once; one that
	// breaks waits a moment, so that a restarting hub is not hammered.
	if sc.Err() != nil && ctx.Err() == nil {
		select {
		case <-ctx.Done():
		case <-time.After(bridgeBackoffMin):
		}
	}
	return lastID
}
