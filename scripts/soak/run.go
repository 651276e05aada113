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

// soak is one run: the world it starts (disk, broker, hub, publisher,
// MCP clients) and the report it fills.
type soak struct {
	o     options
	rep   *report
	d     *disk
	b     *broker
	h     *hub
	pub   *publisher
	db    string
	st    *clientStats
	start time.Time
}

// event is a fault the soak injects once, at a share of its duration.
type event struct {
	at   time.Duration
	name string
	do   func() error
}

func run(o options) (*report, error) {
	s := &soak{o: o, rep: &report{}, st: &clientStats{}}
	s.d = newDisk(filepath.Join(o.work, "state"))
	defer s.d.close()
	var err error
	if s.b, err = newBroker(o.mosquitto, o.work); err != nil {
		return nil, err
	}
	defer s.b.stop()
	if err := s.startHub(); err != nil {
		return nil, err
	}
	fmt.Printf("soak: %s in %s (hub log %s); broker %s, %d devices, %d MCP sessions\n", o.duration, o.work, s.h.logFile.Name(), s.b.addr(), o.devices, o.sessions)

	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for i := range o.sessions {
		wg.Go(func() { session(ctx, s.h, i, s.st) })
	}
	wg.Go(func() { neverReads(ctx, s.h, s.st) })

	s.start = time.Now()
	runErr := s.drive()
	fmt.Println("soak: publishing stopped; waiting for the last acknowledgements")
	s.pub.finish(30 * time.Second)
	time.Sleep(5 * time.Second) // the hub's last flush
	sample(s.rep, s.h, time.Since(s.start))
	s.rep.rssEnd, s.rep.gorEnd = rss(s.h.pid()), goroutines(s.h.url())
	cancel()
	wg.Wait()
	return s.rep, s.finish(runErr)
}

// startHub writes the hub's configuration, starts it and the publisher.
func (s *soak) startHub() error {
	s.db = filepath.Join(s.d.dir, "climated.db")
	config := filepath.Join(s.o.work, "climated.yaml")
	if err := os.WriteFile(config, []byte(fmt.Sprintf(`listen: 127.0.0.1:0
database: %s
demo: {enabled: true, interval: 1s}
mqtt:
  broker: tcp://%s
  subscriptions:
    - {topic: "soak/+/state", format: climated}
`, s.db, s.b.addr())), 0o600); err != nil {
		return err
	}
	var err error
	if s.h, err = newHub(s.o.bin, config, filepath.Join(s.o.work, "climated.log")); err != nil {
		return err
	}
	if err := s.h.start(); err != nil {
		return err
	}
	if s.pub, err = newPublisher(s.b.addr(), s.o.devices); err != nil {
		s.h.stop(syscall.SIGTERM)
		return err
	}
	return nil
}

// events are the faults of the run, in order.
func (s *soak) events() []event {
	return []event{
		{s.o.duration / 4, "SIGKILL and restart", func() error {
			s.h.stop(syscall.SIGKILL)
			return s.h.start()
		}},
		{3 * s.o.duration / 8, fmt.Sprintf("disk full for %s", s.fullFor()), func() error { return s.diskFull(false) }},
		{s.o.duration / 2, fmt.Sprintf("disk full for %s after the WAL was checkpointed to nothing", s.fullFor()), func() error { return s.diskFull(true) }},
		{3 * s.o.duration / 4, "SIGTERM and restart", func() error {
			if err := s.h.stop(syscall.SIGTERM); err != nil {
				return fmt.Errorf("SIGTERM: %w", err)
			}
			return s.h.start()
		}},
	}
}

// fullFor is how long the disk stays full: a minute, or a tenth of a
// short run, so that each episode is over before the next event.
func (s *soak) fullFor() time.Duration { return min(time.Minute, s.o.duration/10) }

// diskFull fills the database's file system for fullFor. With freshWAL
// the WAL is first checkpointed to an empty file (as the hub leaves it at
// every clean stop), so that no commit finds room in it: the hub once lost
// 1,200 of 1,600 messages so, where a WAL with room lost nothing.
func (s *soak) diskFull(freshWAL bool) error {
	what := "WAL with room"
	if freshWAL {
		what = "WAL checkpointed to nothing"
		if err := checkpointTruncate(s.db); err != nil {
			what = fmt.Sprintf("WAL checkpoint failed (%v)", err)
		}
	}
	if err := s.d.fill(); err != nil {
		s.rep.diskFull = append(s.rep.diskFull, err.Error())
		s.d.free()
		return nil
	}
	s.rep.diskFull = append(s.rep.diskFull, fmt.Sprintf("%s with the %s, the database's file system filled to the last byte", s.fullFor(), what))
	go func() { time.Sleep(s.fullFor()); s.d.free() }()
	return nil
}

// drive publishes once a second for the run's duration, samples the hub,
// restarts the broker every brokerEvery and injects the events.
func (s *soak) drive() error {
	events := s.events()
	nextBroker := s.o.brokerEvery
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	sampleAt := time.Now()
	for k := int64(0); ; k++ {
		now := <-tick.C
		el := now.Sub(s.start)
		if el >= s.o.duration {
			return nil
		}
		s.pub.tick(now, k)
		if now.Sub(sampleAt) >= 5*time.Second {
			sampleAt = now
			sample(s.rep, s.h, el)
		}
		if el >= nextBroker {
			nextBroker += s.o.brokerEvery
			s.restartBroker(el)
		}
		for len(events) > 0 && el >= events[0].at {
			fmt.Printf("soak: %s %s\n", el.Round(time.Second), events[0].name)
			if err := events[0].do(); err != nil {
				return err
			}
			events = events[1:]
		}
	}
}

func (s *soak) restartBroker(el time.Duration) {
	fmt.Printf("soak: %s broker restart\n", el.Round(time.Second))
	go func() {
		if err := s.b.restart(3 * time.Second); err != nil {
			fmt.Fprintln(os.Stderr, "soak:", err)
		}
	}()
}

// finish stops the hub and fills the report from the hub, the publisher,
// the clients and the database; it returns the run's first error.
func (s *soak) finish(runErr error) error {
	rep := s.rep
	rep.took = time.Since(s.start)
	if err := s.h.stop(syscall.SIGTERM); err != nil && runErr == nil {
		runErr = fmt.Errorf("final SIGTERM: %w", err)
	}
	published, unacked, resent := s.pub.snapshot()
	rep.unacked, rep.resent = unacked, resent
	rep.starts, rep.brokerRestarts = s.h.starts, s.b.restarts
	rep.cpu, rep.lines, rep.byMsg = s.h.cpu, s.h.lines, s.h.byMsg
	st := s.st
	rep.calls, rep.failed, rep.notified, rep.connects = st.calls.Load(), st.failed.Load(), st.notified.Load(), st.connects.Load()
	rep.sse = map[int]int64{}
	st.sseCodes.Range(func(k, v any) bool { rep.sse[k.(int)] = v.(interface{ Load() int64 }).Load(); return true })
	if err := rep.count(s.o.bin, s.db, published); err != nil && runErr == nil {
		runErr = err
	}
	return runErr
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
