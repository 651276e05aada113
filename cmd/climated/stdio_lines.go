package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// maxLine bounds one message on stdin, as the SDK's own transport does.
const maxLine = 16 << 20

// lineFilter sits between stdin and the SDK's stdio transport. The SDK
// decodes stdin as one JSON stream: a syntax error leaves the decoder
// unable to find the next message and ends the session. JSON-RPC wants a
// -32700 answer and a server that carries on, so each line is checked
// here first: a line that is not JSON gets a parse error (id null), one
// that is JSON but no JSON-RPC message gets -32600, and only good lines
// reach the SDK.
type lineFilter struct {
	in      *bufio.Reader
	out     io.Writer // shared with the transport: see lockedWriter
	log     *slog.Logger
	pending []byte
}

func newLineFilter(r io.Reader, out io.Writer, log *slog.Logger) *lineFilter {
	return &lineFilter{in: bufio.NewReaderSize(r, 64<<10), out: out, log: log}
}

func (f *lineFilter) Read(p []byte) (int, error) {
	for len(f.pending) == 0 {
		line, err := f.readLine()
		if len(line) > 0 {
			f.pending = f.check(line)
		}
		if err != nil && len(f.pending) == 0 {
			return 0, err
		}
		if err != nil {
			break // hand over the last line; the next Read sees EOF
		}
	}
	n := copy(p, f.pending)
	f.pending = f.pending[n:]
	return n, nil
}

// readLine returns the next line without its end, or nil for an empty
// one; a line longer than maxLine is skipped and answered.
func (f *lineFilter) readLine() ([]byte, error) {
	var line []byte
	tooLong := false
	for {
		chunk, err := f.in.ReadSlice('\n')
		if !tooLong && len(line)+len(chunk) > maxLine {
			tooLong, line = true, nil
		}
		if !tooLong {
			line = append(line, chunk...) // a copy: ReadSlice reuses its buffer
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if tooLong {
			f.answer(jsonrpc.CodeParseError, fmt.Sprintf("parse error: a line longer than %d bytes", maxLine), nil)
			return nil, err
		}
		return bytes.TrimSpace(line), err
	}
}

// check returns the line to pass on (with its newline), or nil after
// answering a bad one.
func (f *lineFilter) check(line []byte) []byte {
	if !json.Valid(line) {
		f.answer(jsonrpc.CodeParseError, "parse error: the line is not JSON: "+excerpt(line), nil)
		return nil
	}
	if line[0] == '{' {
		if why := notAMessage(line); why != "" {
			var probe struct {
				ID json.RawMessage `json:"id"`
			}
			json.Unmarshal(line, &probe)
			f.answer(jsonrpc.CodeInvalidRequest, "invalid request: "+why, probe.ID)
			return nil
		}
	}
	return append(line, '\n')
}

// notAMessage says why a JSON object is no JSON-RPC 2.0 message, or "".
// The SDK takes an object with only an id for an answer and ignores it,
// which leaves a client waiting.
func notAMessage(line []byte) string {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(line, &m); err != nil {
		return err.Error()
	}
	if string(m["jsonrpc"]) != `"2.0"` {
		return `"jsonrpc" must be "2.0"`
	}
	_, method := m["method"]
	_, result := m["result"]
	_, failed := m["error"]
	if !method && !result && !failed {
		return `neither a "method" nor a "result" or "error"`
	}
	if _, err := jsonrpc.DecodeMessage(line); err != nil {
		return err.Error()
	}
	return ""
}

// answer writes an error response; a nil id is written as null, as
// JSON-RPC requires when the id could not be read.
func (f *lineFilter) answer(code int, msg string, id json.RawMessage) {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	f.log.Warn("bad message on stdin", "code", code, "error", msg)
	data, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", id, jsonrpc.Error{Code: int64(code), Message: msg}})
	f.out.Write(append(data, '\n'))
}

func excerpt(b []byte) string {
	const n = 60
	if len(b) > n {
		return fmt.Sprintf("%q…", b[:n])
	}
	return fmt.Sprintf("%q", b)
}

// lockedWriter makes each Write whole: the SDK writes one message per
// call, and so does lineFilter, so messages never interleave on stdout.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// nopWriteCloser lets stdout serve as a transport's writer without the
// transport closing it.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
