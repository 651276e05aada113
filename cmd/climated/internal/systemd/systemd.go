package systemd

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/coreos/go-systemd/v22/daemon"
)

// The watchdog is fed only while the hub's main loops answer: the
// history writer takes a request, and the HTTP server answers a request of
// its own. A hub stuck in either stops feeding it and systemd restarts it.

// Notify tells systemd the state (daemon.SdNotifyReady …); outside
// systemd it does nothing.
func Notify(log *slog.Logger, state string) {
	if _, err := daemon.SdNotify(false, state); err != nil {
		log.Warn("tell systemd", "state", state, "err", err)
	}
}

// Liveness is what the watchdog asks of the hub.
type Liveness struct {
	Ping func(context.Context) error // the history writer's round trip (no write)
	Addr net.Addr                    // the HTTP listener
}

// probe fails when a main loop does not answer within ctx. An answer that
// is an error (the disk is full) still proves the loop runs.
func (l Liveness) probe(ctx context.Context) error {
	if err := l.Ping(ctx); errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return fmt.Errorf("history writer does not answer: %w", err)
	}
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+loopbackAddr(l.Addr)+"/healthz", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("HTTP server does not answer: %w", err)
	}
	resp.Body.Close()
	return nil
}

// loopbackAddr turns a wildcard listen address into one a local client
// can dial.
func loopbackAddr(a net.Addr) string {
	tcp, ok := a.(*net.TCPAddr)
	if !ok || !tcp.IP.IsUnspecified() {
		return a.String()
	}
	return net.JoinHostPort("127.0.0.1", fmt.Sprint(tcp.Port))
}

// Watchdog feeds systemd's watchdog every third of its interval, as long
// as the probe passes, until ctx ends.
func Watchdog(ctx context.Context, log *slog.Logger, l Liveness) {
	interval, err := daemon.SdWatchdogEnabled(false)
	if err != nil || interval <= 0 {
		return
	}
	every := interval / 3
	tick := time.NewTicker(every)
	defer tick.Stop()
	failing := false
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		pctx, cancel := context.WithTimeout(ctx, every)
		err := l.probe(pctx)
		cancel()
		switch {
		case err == nil:
			if failing {
				log.Info("watchdog: the hub answers again")
				failing = false
			}
			Notify(log, daemon.SdNotifyWatchdog)
		case !failing && ctx.Err() == nil:
			log.Error("watchdog: the hub is stuck; systemd will restart it unless it recovers", "err", err, "watchdog", interval)
			failing = true
		}
	}
}
