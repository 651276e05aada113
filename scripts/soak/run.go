package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

func run(o options) (*report, error) {
	rep := &report{}
	d := newDisk(filepath.Join(o.work, "state"))
	defer d.close()
	b, err := newBroker(o.mosquitto, o.work)
	if err != nil {
		return nil, err
	}
	defer b.stop()
	db := filepath.Join(d.dir, "climated.db")
	config := filepath.Join(o.work, "climated.yaml")
	if err := os.WriteFile(config, []byte(fmt.Sprintf(`listen: 127.0.0.1:0
database: %s
demo: {enabled: true, interval: 1s}
mqtt:
  broker: tcp://%s
  subscriptions:
    - {topic: "soak/+/state", format: climated}
`, db, b.addr())), 0o600); err != nil {
		return nil, err
	}
	h, err := newHub(o.bin, config, filepath.Join(o.work, "climated.log"))
	if err != nil {
		return nil, err
	}
	if err := h.start(); err != nil {
		return nil, err
	}
	pub, err := newPublisher(b.addr(), o.devices)
	if err != nil {
		h.stop(syscall.SIGTERM)
		return nil, err
	}
	fmt.Printf("soak: %s in %s (hub log %s); broker %s, %d devices, %d MCP sessions\n", o.duration, o.work, h.logFile.Name(), b.addr(), o.devices, o.sessions)

	ctx, cancel := context.WithCancel(context.Background())
	st := &clientStats{}
	var wg sync.WaitGroup
	for i := range o.sessions {
		wg.Go(func() { session(ctx, h, i, st) })
	}
	wg.Go(func() { neverReads(ctx, h, st) })

	start := time.Now()
	events := []struct {
		at   time.Duration
		name string
		do   func() error
	}{
		{o.duration / 4, "SIGKILL and restart", func() error {
			h.stop(syscall.SIGKILL)
			return h.start()
		}},
		{o.duration / 2, "disk full for 60 s", func() error {
			if err := d.fill(); err != nil {
				rep.diskFull = err.Error()
				d.free()
				return nil
			}
			rep.diskFull = "60 s, the database's file system filled to the last byte"
			go func() { time.Sleep(60 * time.Second); d.free() }()
			return nil
		}},
		{3 * o.duration / 4, "SIGTERM and restart", func() error {
			if err := h.stop(syscall.SIGTERM); err != nil {
				return fmt.Errorf("SIGTERM: %w", err)
			}
			return h.start()
		}},
	}
	nextBroker := o.brokerEvery
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	sampleAt := time.Now()
	var runErr error
	for k := int64(0); runErr == nil; k++ {
		now := <-tick.C
		el := now.Sub(start)
		if el >= o.duration {
			break
		}
		pub.tick(now, k)
		if now.Sub(sampleAt) >= 5*time.Second {
			sampleAt = now
			sample(rep, h, el)
		}
		if el >= nextBroker {
			nextBroker += o.brokerEvery
			fmt.Printf("soak: %s broker restart\n", el.Round(time.Second))
			go func() {
				if err := b.restart(3 * time.Second); err != nil {
					fmt.Fprintln(os.Stderr, "soak:", err)
				}
			}()
		}
		for len(events) > 0 && el >= events[0].at {
			fmt.Printf("soak: %s %s\n", el.Round(time.Second), events[0].name)
			runErr = events[0].do()
			events = events[1:]
		}
	}
	fmt.Println("soak: publishing stopped; waiting for the last acknowledgements")
	pub.finish(30 * time.Second)
	time.Sleep(5 * time.Second) // the hub's last flush
	sample(rep, h, time.Since(start))
	rep.rssEnd, rep.gorEnd = rss(h.pid()), goroutines(h.url())
	cancel()
	wg.Wait()
	rep.took = time.Since(start)
	if err := h.stop(syscall.SIGTERM); err != nil && runErr == nil {
		runErr = fmt.Errorf("final SIGTERM: %w", err)
	}
	published, unacked, resent := pub.snapshot()
	rep.unacked, rep.resent = unacked, resent
	rep.starts, rep.brokerRestarts = h.starts, b.restarts
	rep.cpu, rep.lines, rep.byMsg = h.cpu, h.lines, h.byMsg
	rep.calls, rep.failed, rep.notified, rep.connects = st.calls.Load(), st.failed.Load(), st.notified.Load(), st.connects.Load()
	rep.sse = map[int]int64{}
	st.sseCodes.Range(func(k, v any) bool { rep.sse[k.(int)] = v.(interface{ Load() int64 }).Load(); return true })
	if err := rep.count(o.bin, db, published); err != nil && runErr == nil {
		runErr = err
	}
	return rep, runErr
}

// sample keeps the start (the first sample after a minute), peak and
// latest RSS and goroutines.
func sample(rep *report, h *hub, el time.Duration) {
	r, g := rss(h.pid()), goroutines(h.url())
	if r == 0 {
		return
	}
	if rep.rssStart == 0 && el >= time.Minute {
		rep.rssStart, rep.gorStart = r, g
	}
	rep.rssPeak, rep.gorPeak = max(rep.rssPeak, r), max(rep.gorPeak, g)
}
