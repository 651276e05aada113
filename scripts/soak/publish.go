package main

import (
	"fmt"
	"math"
	"sync"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
)

// reading is one published reading's identity and value.
type reading struct {
	zone string
	when int64
}

// publisher sends each device's reading every second at QoS 1 until the
// broker acknowledges it; a message that fails (the broker restarts) is
// sent again with its own time, so the hub sees it at most once per time.
type publisher struct {
	c       paho.Client
	devices int

	mu        sync.Mutex
	published map[reading]float64
	pending   []*outgoing
	resent    int
}

type outgoing struct {
	r    reading
	v    float64
	tok  paho.Token
	sent time.Time
}

func newPublisher(addr string, devices int) (*publisher, error) {
	o := paho.NewClientOptions().AddBroker("tcp://" + addr).SetClientID("soak-publisher").
		SetCleanSession(false).SetAutoReconnect(true).SetConnectRetry(true).
		SetMaxReconnectInterval(time.Second).SetConnectRetryInterval(500 * time.Millisecond)
	c := paho.NewClient(o)
	if t := c.Connect(); !t.WaitTimeout(10*time.Second) || t.Error() != nil {
		return nil, fmt.Errorf("publisher: connect to %s: %v", addr, t.Error())
	}
	return &publisher{c: c, devices: devices, published: map[reading]float64{}}, nil
}

func zoneName(i int) string { return fmt.Sprintf("Soak%02d", i) }

// value is device i's k-th temperature: distinct for 1,250 seconds, and
// within the measurement's range.
func value(i int, k int64) float64 {
	return math.Round((-40+float64((k+int64(i)*7)%1250)*0.1)*10) / 10
}

// tick queues this second's readings and (re)sends what waits.
func (p *publisher) tick(now time.Time, k int64) {
	p.mu.Lock()
	for i := range p.devices {
		p.pending = append(p.pending, &outgoing{r: reading{zoneName(i), now.Unix()}, v: value(i, k)})
	}
	p.mu.Unlock()
	p.send(now)
}

// send (re)sends what waits and collects the broker's acknowledgements.
func (p *publisher) send(now time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	kept := p.pending[:0]
	for _, o := range p.pending {
		if o.tok != nil {
			select {
			case <-o.tok.Done():
				if o.tok.Error() == nil {
					p.published[o.r] = o.v
					continue
				}
				o.tok = nil
			default:
				if now.Sub(o.sent) > 10*time.Second {
					o.tok = nil // lost in a broker restart: send again
				}
			}
		}
		if o.tok == nil && p.c.IsConnectionOpen() {
			if !o.sent.IsZero() {
				p.resent++
			}
			payload := fmt.Sprintf(`{"zone":%q,"When":%d,"Temperature":%g}`, o.r.zone, o.r.when, o.v)
			o.tok = p.c.Publish("soak/"+o.r.zone+"/state", 1, false, payload)
			o.sent = now
		}
		kept = append(kept, o)
	}
	p.pending = kept
}

// finish waits up to d for what is still in flight.
func (p *publisher) finish(d time.Duration) {
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		p.mu.Lock()
		n := len(p.pending)
		p.mu.Unlock()
		if n == 0 {
			break
		}
		p.send(time.Now())
	}
	p.c.Disconnect(250)
}

func (p *publisher) snapshot() (map[reading]float64, int, int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make(map[reading]float64, len(p.published))
	for k, v := range p.published {
		out[k] = v
	}
	return out, len(p.pending), p.resent
}
