package stdio

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

// MaxLine bounds one message on stdin, as the SDK's own transport does.
const MaxLine = 16 << 20

// Filter sits between stdin and the SDK's stdio transport. The SDK
// decodes stdin as one JSON stream: a syntax error leaves the decoder
// unable to find the next message and ends the session. JSON-RPC wants a
// -32700 answer and a server that carries on, so each line is checked
// here first: a line that is not JSON gets a parse error (id null), one
// that is JSON but no JSON-RPC message gets -32600, and only good lines
// reach the SDK.
type Filter struct {
	in      *bufio.Reader
	out     io.Writer // shared with the transport: see LockedWriter
	log     *slog.Logger
	pending []byte
}

// NewFilter reads lines from r and answers the bad ones on out (the
// writer the transport shares).
func NewFilter(r io.Reader, out io.Writer, log *slog.Logger) *Filter {
	return &Filter{in: bufio.NewReaderSize(r, 64<<10), out: out, log: log}
}

func (f *Filter) Read(p []byte) (int, error) {
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
// one; a line longer than MaxLine is skipped and answered.
func (f *Filter) readLine() ([]byte, error) {
	var line []byte
	tooLong := false
	for {
		chunk, err := f.in.ReadSlice('\n')
		if !tooLong && len(line)+len(chunk) > MaxLine {
			tooLong, line = true, nil
		}
		if !tooLong {
			line = append(line, chunk...) // a copy: ReadSlice reuses its buffer
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if tooLong {
			f.answer(jsonrpc.CodeParseError, fmt.Sprintf("parse error: a line longer than %d bytes", MaxLine), nil)
			return nil, err
		}
		return bytes.TrimSpace(line), err
	}
}

// check returns the line to pass on (with its newline), or nil after
// answering a bad one.
func (f *Filter) check(line []byte) []byte {
	if !json.Valid(line) {
		f.answer(jsonrpc.CodeParseError, "parse error: the line is not JSON: "+Excerpt(line), nil)
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
func (f *Filter) answer(code int, msg string, id json.RawMessage) {
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

// Excerpt is the start of b, quoted, for a log line.
func Excerpt(b []byte) string {
	const n = 60
	if len(b) > n {
		return fmt.Sprintf("%q…", b[:n])
	}
	return fmt.Sprintf("%q", b)
}

// LockedWriter makes each Write whole: the SDK writes one message per
// call, and so does Filter, so messages never interleave on stdout.
type LockedWriter struct {
	mu sync.Mutex
	W  io.Writer
}

func (l *LockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.W.Write(p)
}

// NopWriteCloser lets stdout serve as a transport's writer without the
// transport closing it.
type NopWriteCloser struct{ io.Writer }

func (NopWriteCloser) Close() error { return nil }
