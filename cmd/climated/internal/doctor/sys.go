package doctor

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/eclipse/paho.mqtt.golang/packets"

	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/cmd/climated/internal/hubfile"
	"github.com/climated/climated/cmd/climated/internal/stampguard"
	"github.com/climated/climated/history"
	"github.com/climated/climated/mqtt"
)

// The doctor's checks of the system around the hub: broker, disk, clock,
// service, token and listen address.

// checkBroker connects once with the configured credentials, through
// mqtt.Probe: under a client ID of its own (the hub's would throw the hub
// off) and without a will, so that the hub's availability is left alone.
func checkBroker(ctx context.Context, cfg config.Config, env Env) []Finding {
	if cfg.MQTT == nil {
		return []Finding{{Check: "broker", Status: StatusSkip, Detail: "no mqtt: section"}}
	}
	o := cfg.MQTT.Options
	if o.ConnectTimeout == 0 {
		o.ConnectTimeout = brokerTimeout
	}
	err := mqtt.Probe(ctx, o)
	if oe := (*mqtt.OptionsError)(nil); errors.As(err, &oe) {
		return []Finding{{Check: "broker", Status: StatusFail, Detail: err.Error(), Fix: "correct ca_file, cert_file and key_file under mqtt:"}}
	}
	if err != nil {
		return []Finding{{Check: "broker", Status: StatusFail, Detail: brokerProblem(o.Broker, err), Fix: brokerFix(err)}}
	}
	who := "anonymously"
	if o.Username != "" {
		who = "as " + o.Username
	}
	conf := env.MosquittoConf
	if conf == "" {
		conf = mosquittoConf
	}
	return append([]Finding{{Check: "broker", Status: StatusOK, Detail: fmt.Sprintf("%s: connected %s", o.Broker, who)}}, checkBrokerLimit(o.Broker, conf)...)
}

// brokerTimeout bounds the doctor's connection when the configuration
// sets no connect_timeout.
const brokerTimeout = 5 * time.Second

// brokerProblem says what went wrong with the broker.
func brokerProblem(broker string, err error) string {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return fmt.Sprintf("%s: no answer: %v", broker, err)
	}
	return fmt.Sprintf("%s: %v", broker, err)
}

// brokerFix says what to do about it: paho's CONNACK refusals of the
// credentials are told apart from a broker that is not there.
func brokerFix(err error) string {
	switch {
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled):
		return "is the broker running and reachable from here?"
	case errors.Is(err, packets.ErrorRefusedNotAuthorised) || errors.Is(err, packets.ErrorRefusedBadUsernameOrPassword):
		return "correct mqtt.username and mqtt.password (or password_env) for this broker"
	}
	return "start the broker (systemctl start mosquitto) or correct mqtt.broker"
}

// checkDatabase writes a probe beside the database and looks at the
// free space of its disk.
func checkDatabase(ctx context.Context, cfg config.Config, env Env) []Finding {
	dir := filepath.Dir(cfg.Database)
	existing := dir
	for {
		if _, err := os.Stat(existing); err == nil || filepath.Dir(existing) == existing {
			break
		}
		existing = filepath.Dir(existing)
	}
	free, _, err := history.DiskSpace(existing)
	if err != nil {
		return []Finding{{Check: "database", Status: StatusFail, Detail: fmt.Sprintf("%s: %v", existing, err)}}
	}
	probe, err := os.CreateTemp(existing, ".climated-doctor-*")
	if err == nil {
		_, err = probe.Write(make([]byte, 64<<10))
		if err == nil {
			err = probe.Sync()
		}
		probe.Close()
		os.Remove(probe.Name())
	}
	switch {
	case err != nil:
		fix := "the service's user must own " + existing + " (the unit's StateDirectory does this)"
		if errors.Is(err, syscall.ENOSPC) {
			fix = "free space on that disk, or shorten retention: in the configuration"
		}
		return []Finding{{Check: "database", Status: StatusFail, Detail: fmt.Sprintf("cannot write in %s: %v", existing, err), Fix: fix}}
	case free < env.MinFree:
		return []Finding{{Check: "database", Status: StatusFail, Detail: fmt.Sprintf("%s: only %s free", existing, history.FormatBytes(free)),
			Fix: "free space on that disk (df -h " + existing + "), or shorten retention: in the configuration"}}
	}
	what := cfg.Database + " will be created"
	if fi, err := os.Stat(cfg.Database); err == nil {
		what = fmt.Sprintf("%s (%s)", cfg.Database, history.FormatBytes(databaseSize(cfg.Database, fi.Size())))
	}
	return []Finding{{Check: "database", Status: StatusOK, Detail: fmt.Sprintf("%s, writable, %s free", what, history.FormatBytes(free))}}
}

// databaseSize is the database file's size, main, plus its WAL: a running
// hub's recent commits are in the WAL until a checkpoint moves them.
func databaseSize(path string, main int64) uint64 {
	if fi, err := os.Stat(path + "-wal"); err == nil {
		main += fi.Size()
	}
	return uint64(main)
}

// checkClock: readings are stamped with this clock, and the history
// refuses readings from before its newest one.
func checkClock(ctx context.Context, cfg config.Config, env Env) []Finding {
	now := env.Now()
	var out []Finding
	if now.Before(stampguard.Floor) {
		out = append(out, Finding{Check: "clock", Status: StatusFail, Detail: fmt.Sprintf("the clock says %s: it was never set (a Pi has no real-time clock)", now.UTC().Format(time.RFC3339)),
			Fix: "let it synchronise: network up, then timedatectl set-ntp true; systemctl status systemd-timesyncd"})
	}
	if _, err := os.Stat(cfg.Database); err == nil {
		if store, err := history.OpenReadOnly(ctx, cfg.Database, nil); err == nil {
			a, err := store.Ahead(ctx, now)
			store.Close(context.Background())
			if err == nil && a.Count > 0 {
				// Either this clock is behind (readings stamped now come
				// before them) or a clock was ahead when they were stamped.
				out = append(out, Finding{Check: "clock", Status: StatusFail, Detail: stampguard.AheadText(a, now), Fix: stampguard.AheadFix()})
			}
		}
	}
	if sync, err := env.Run(ctx, "timedatectl", "show", "-p", "NTPSynchronized", "--value"); err == nil {
		if sync == "no" {
			out = append(out, Finding{Check: "clock", Status: StatusWarn, Detail: "not synchronised with NTP", Fix: "timedatectl set-ntp true; check the network"})
		}
	}
	if len(out) == 0 {
		out = append(out, Finding{Check: "clock", Status: StatusOK, Detail: now.UTC().Format(time.RFC3339)})
	}
	return out
}

// checkService asks systemd how the service is.
func checkService(ctx context.Context, cfg config.Config, env Env) []Finding {
	state, err := env.Run(ctx, "systemctl", "is-active", "climated.service")
	switch {
	case state == "active":
		return []Finding{{Check: "service", Status: StatusOK, Detail: "climated.service is active"}}
	case state == "failed":
		return []Finding{{Check: "service", Status: StatusFail, Detail: "climated.service has failed", Fix: "journalctl -u climated -n 50 says why; then systemctl restart climated"}}
	case state == "inactive" || state == "activating" || state == "deactivating":
		return []Finding{{Check: "service", Status: StatusWarn, Detail: "climated.service is " + state, Fix: "sudo systemctl enable --now climated"}}
	case err != nil && state == "":
		return []Finding{{Check: "service", Status: StatusSkip, Detail: fmt.Sprintf("no systemd to ask: %v", err)}}
	}
	return []Finding{{Check: "service", Status: StatusWarn, Detail: "climated.service: " + state, Fix: "install it: sudo apt install ./climated_*.deb, or scripts/install.sh"}}
}

// checkToken: a token file others can read stops the hub from starting.
func checkToken(ctx context.Context, cfg config.Config, env Env) []Finding {
	path := cfg.TokenPath()
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist) && cfg.NeedsToken():
		return []Finding{{Check: "token", Status: StatusOK, Detail: path + " will be created at the first start (mode 0600)"}}
	case errors.Is(err, fs.ErrNotExist):
		return []Finding{{Check: "token", Status: StatusSkip, Detail: "not needed: the hub listens on loopback only"}}
	case err != nil:
		return []Finding{{Check: "token", Status: StatusFail, Detail: err.Error(), Fix: "run the doctor as the service's user or root (sudo climated doctor)"}}
	case fi.Mode().Perm()&0o077 != 0:
		return []Finding{{Check: "token", Status: StatusFail, Detail: fmt.Sprintf("%s is readable by others (mode %04o): the hub refuses to start", path, fi.Mode().Perm()), Fix: "chmod 600 " + path}}
	}
	return []Finding{{Check: "token", Status: StatusOK, Detail: fmt.Sprintf("%s, mode %04o", path, fi.Mode().Perm())}}
}

// listenReach says who reaches the listener at host: with public_url and a
// loopback listener, the world through the tunnel or proxy on this
// machine, not the LAN.
func listenReach(cfg config.Config, host string) string {
	switch {
	case !cfg.NeedsToken():
		return "only programs on this machine (loopback)"
	case !cfg.ListensBeyondLoopback():
		return "programs on this machine, and the world through the tunnel or proxy at " + cfg.PublicURL + " (public_url); every request needs the bearer token or an assistant's sign-in"
	case host == "" || host == "0.0.0.0" || host == "::":
		return "every network this machine is on; every request needs the bearer token (climated token)"
	}
	return "other machines too; every request needs the bearer token (climated token)"
}

// checkListen says who can reach the address, and whether the port is
// free or held by a hub.
func checkListen(ctx context.Context, cfg config.Config, env Env) []Finding {
	if info, ok := hubfile.Read(cfg.Database); ok && info.Listen != cfg.Listen {
		who := listenReach(config.Config{Listen: info.Listen, PublicURL: info.PublicURL}, hostOf(info.Listen))
		return []Finding{{Check: "listen", Status: StatusWarn, Detail: fmt.Sprintf("the hub of %s answers at %s, not at the configuration's %s (it was started with another listen address); reachable from %s", cfg.Database, info.Listen, cfg.Listen, who),
			Fix: "set listen: in the configuration to the address the hub should keep, and restart it"}}
	}
	host, port, _ := net.SplitHostPort(cfg.Listen)
	who := listenReach(cfg, host)
	ln, err := net.Listen("tcp", cfg.Listen)
	if err == nil {
		ln.Close()
		return []Finding{{Check: "listen", Status: StatusOK, Detail: fmt.Sprintf("%s is free (no hub serving now); reachable from %s", cfg.Listen, who)}}
	}
	if !errors.Is(err, syscall.EADDRINUSE) {
		return []Finding{{Check: "listen", Status: StatusFail, Detail: fmt.Sprintf("%s: %v", cfg.Listen, err), Fix: "choose an address of this machine in listen: (e.g. " + config.DefaultListen + ")"}}
	}
	probe := host
	if probe == "" || probe == "0.0.0.0" || probe == "::" {
		probe = "127.0.0.1"
	}
	client := &http.Client{Timeout: 3 * time.Second}
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+net.JoinHostPort(probe, port)+"/healthz", nil)
	if resp, err := client.Do(req); err == nil {
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK || resp.StatusCode == http.StatusServiceUnavailable {
			return []Finding{{Check: "listen", Status: StatusOK, Detail: fmt.Sprintf("a hub answers at %s (/healthz %d); reachable from %s", cfg.Listen, resp.StatusCode, who)}}
		}
	}
	return []Finding{{Check: "listen", Status: StatusFail, Detail: fmt.Sprintf("%s is held by another program, not a hub", cfg.Listen),
		Fix: "see which: ss -ltnp 'sport = :" + port + "'; stop it or choose another listen: address"}}
}

// hostOf is the host of a host:port address.
func hostOf(addr string) string {
	h, _, _ := net.SplitHostPort(addr)
	return h
}
