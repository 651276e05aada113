package mqtt

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"sync/atomic"
)

// paho reads a whole packet into memory before anyone can look at it, and
// has no limit of its own (MQTT 3.1.1 has no maximum packet size to
// negotiate; brokers allow 256 MB by default): one 100 MB message took a
// hub from 35 to 241 MB. limitConn sits between the network and paho and
// passes every packet on unchanged, except a PUBLISH whose payload is
// larger than the limit: paho gets that one with its topic, flags and
// packet id but with a short placeholder payload that names the dropped
// payload's size (oversizedPayload), and the payload's bytes are read
// from the network and thrown away as they come, never held. The handler
// sees a Message with Oversized set, and the ingest acknowledges it like
// any message it drops, so the broker does not send it again.

// oversizedMark starts the placeholder payload; its size in bytes follows.
// A device that sends these bytes itself only gets its message dropped.
const oversizedMark = "\x00climated: payload dropped, bytes: "

// limitConn is a broker connection whose oversized PUBLISH payloads are
// dropped as they arrive. Only paho's reading goroutine calls Read.
type limitConn struct {
	net.Conn
	limit *atomic.Int64 // the largest payload passed on
	br    *bufio.Reader
	pend  []byte // bytes ready for paho: a header, or a rewritten packet
	pass  int    // bytes of the current packet to pass on as they are
	skip  int    // bytes of the current packet to throw away
}

func newLimitConn(c net.Conn, limit *atomic.Int64) *limitConn {
	return &limitConn{Conn: c, limit: limit, br: bufio.NewReaderSize(c, 4096)}
}

func (c *limitConn) Read(p []byte) (int, error) {
	for {
		switch {
		case len(c.pend) > 0:
			n := copy(p, c.pend)
			c.pend = c.pend[n:]
			return n, nil
		case c.pass > 0:
			n, err := c.br.Read(p[:min(len(p), c.pass)])
			c.pass -= n
			return n, err
		case c.skip > 0:
			n, err := c.br.Discard(c.skip)
			c.skip -= n
			if err != nil {
				return 0, err
			}
		default:
			if err := c.next(); err != nil {
				return 0, err
			}
		}
	}
}

// maxVarHeader is the most a PUBLISH's variable header can take: the
// topic's length, the topic, and the packet id.
const maxVarHeader = 2 + 65535 + 2

// next reads the fixed header of the next packet and decides what to do
// with it.
func (c *limitConn) next() error {
	first, err := c.br.ReadByte()
	if err != nil {
		return err
	}
	size, header, err := readLength(c.br)
	if err != nil {
		return err
	}
	header = append([]byte{first}, header...)
	limit := int(c.limit.Load())
	if first>>4 != 3 || size <= limit { // not a PUBLISH, or small enough whatever its topic
		c.pend, c.pass = header, size
		return nil
	}
	vh, err := c.varHeader(first, size)
	if err != nil {
		return err
	}
	payload := size - len(vh)
	if payload <= limit {
		c.pend, c.pass = append(header, vh...), payload
		return nil
	}
	stand := oversizedMark + strconv.Itoa(payload)
	c.pend = append(append(append([]byte{first}, appendLength(nil, len(vh)+len(stand))...), vh...), stand...)
	c.skip = payload
	return nil
}

// varHeader reads a PUBLISH's topic and packet id (with QoS 1 or 2).
func (c *limitConn) varHeader(first byte, size int) ([]byte, error) {
	n := 2
	if first&0x06 != 0 {
		n += 2
	}
	head, err := c.br.Peek(2)
	if err != nil {
		return nil, err
	}
	n += int(head[0])<<8 | int(head[1])
	if n > size || n > maxVarHeader {
		return nil, fmt.Errorf("mqtt: malformed PUBLISH from the broker: a topic of %d bytes in a packet of %d", n, size)
	}
	vh := make([]byte, n)
	if _, err := io.ReadFull(c.br, vh); err != nil {
		return nil, err
	}
	return vh, nil
}

// readLength reads the remaining length of MQTT 3.1.1 §2.2.3 and returns
// it with its bytes.
func readLength(br *bufio.Reader) (int, []byte, error) {
	var raw []byte
	n, shift := 0, 0
	for {
		b, err := br.ReadByte()
		if err != nil {
			return 0, nil, err
		}
		raw = append(raw, b)
		n |= int(b&0x7f) << shift
		if b&0x80 == 0 {
			return n, raw, nil
		}
		if shift += 7; shift > 21 {
			return 0, nil, errors.New("mqtt: malformed remaining length from the broker (more than 4 bytes)")
		}
	}
}

// appendLength appends n as a remaining length.
func appendLength(b []byte, n int) []byte {
	for {
		d := byte(n & 0x7f)
		if n >>= 7; n > 0 {
			d |= 0x80
		}
		b = append(b, d)
		if n == 0 {
			return b
		}
	}
}

// oversizedSize is the size of the payload a placeholder names, and whether
// payload is one.
func oversizedSize(payload []byte) (int, bool) {
	rest, ok := bytes.CutPrefix(payload, []byte(oversizedMark))
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(string(rest))
	return n, err == nil
}
