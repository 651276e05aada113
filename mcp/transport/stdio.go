package transport

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/mcp/transport/internal/wire"
)

// Stdio is the transport for serving MCP on in and out, one JSON-RPC
// message (or batch) a line: the go-sdk's IOTransport, with its lines
// filtered so that request ids come back byte for byte and errors carry
// JSON-RPC codes, as on the HTTP transports (internal/wire). At the end
// of in, the session ends once every request read is answered
// (stdiodrain.go). Neither in nor out is closed.
func Stdio(in io.Reader, out io.Writer) sdk.Transport {
	st := &wire.Session{}
	due := &inflight{}
	return &sdk.IOTransport{
		Reader: &lineIn{r: bufio.NewReader(in), rpc: st, due: due},
		Writer: &lineOut{w: out, rpc: st, due: due},
	}
}

// lineIn swaps the ids of the client's lines where needed.
type lineIn struct {
	r   *bufio.Reader
	rpc *wire.Session
	due *inflight
	buf []byte
	err error
}

func (l *lineIn) Read(p []byte) (int, error) {
	for len(l.buf) == 0 {
		if l.err != nil {
			l.due.wait(drainWait) // the answers to what was read first
			return 0, l.err
		}
		var line []byte
		line, l.err = l.r.ReadBytes('\n')
		l.buf = l.inbound(line)
	}
	n := copy(p, l.buf)
	l.buf = l.buf[n:]
	return n, nil
}

func (l *lineIn) Close() error { return nil }

// inbound is one line as the SDK should read it; a line this layer cannot
// read goes through unchanged for the SDK to refuse.
func (l *lineIn) inbound(line []byte) []byte {
	line = bytes.TrimRight(line, "\r\n")
	if len(line) == 0 {
		return nil
	}
	body, err := wire.Parse(line)
	if err != nil {
		return append(line, '\n')
	}
	for i, m := range body.Msgs {
		if body.Msgs[i], err = l.rpc.In(m); err != nil {
			return append(line, '\n')
		}
	}
	for _, m := range body.Msgs {
		l.due.read(m)
	}
	return append(body.Bytes(), '\n')
}

// lineOut gives the SDK's lines their ids as sent and their errors codes.
type lineOut struct {
	w   io.Writer
	rpc *wire.Session
	due *inflight

	mu      sync.Mutex
	pending []byte
}

func (l *lineOut) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.pending = append(l.pending, p...)
	for {
		i := bytes.IndexByte(l.pending, '\n')
		if i < 0 {
			return len(p), nil
		}
		line, sent := l.outbound(l.pending[:i])
		l.pending = l.pending[i+1:]
		if _, err := l.w.Write(append(line, '\n')); err != nil {
			return 0, err
		}
		for _, m := range sent {
			l.due.wrote(m)
		}
	}
}

func (l *lineOut) Close() error { return nil }

// outbound is one line of the SDK's in its wire form, and its messages;
// the line stays as it is when it cannot be read.
func (l *lineOut) outbound(line []byte) (out []byte, sent []jsonrpc.Message) {
	msgs := [][]byte{line}
	batch := len(line) > 0 && line[0] == '['
	if batch && json.Unmarshal(line, &msgs) != nil {
		return line, nil
	}
	for i, m := range msgs {
		msg, err := jsonrpc.DecodeMessage(m)
		if err == nil {
			msgs[i], err = l.rpc.Out(msg)
		}
		if err != nil {
			return line, nil
		}
		sent = append(sent, msg)
	}
	if !batch {
		return msgs[0], sent
	}
	return wire.Join(msgs), sent
}
