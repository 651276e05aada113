package main

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/climated/climated/cmd/climated/internal/clock"
	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/history"
)

// The doctor's checks of the system around the hub: broker, disk, clock,
// service, token and listen address.

// checkBroker connects once with the configured credentials, under a
// client ID of its own (the hub's would throw the hub off) and without a
// will, so that the hub's availability is left alone.
func checkBroker(ctx context.Context, cfg config.Config, env doctorEnv) []finding {
	if cfg.MQTT == nil {
		return []finding{{Check: "broker", Status: statusSkip, Detail: "no mqtt: section"}}
	}
	o := cfg.MQTT.Options
	password := o.Password
	if o.PasswordEnv != "" {
		password = os.Getenv(o.PasswordEnv)
	}
	po := paho.NewClientOptions().AddBroker(o.Broker).
		SetClientID("climated-doctor-" + rand.Text()[:8]).
		SetUsername(o.Username).SetPassword(password).
		SetConnectTimeout(5 * time.Second).
		SetAutoReconnect(false).SetConnectRetry(false)
	if o.CAFile != "" || o.CertFile != "" {
		tc, err := doctorTLS(o.CAFile, o.CertFile, o.KeyFile)
		if err != nil {
			return []finding{{Check: "broker", Status: statusFail, Detail: err.Error(), Fix: "correct ca_file, cert_file and key_file under mqtt:"}}
		}
		po.SetTLSConfig(tc)
	}
	c := paho.NewClient(po)
	tok := c.Connect()
	select {
	case <-tok.Done():
	case <-ctx.Done():
		return []finding{{Check: "broker", Status: statusFail, Detail: fmt.Sprintf("%s: no answer: %v", o.Broker, ctx.Err()), Fix: "is the broker running and reachable from here?"}}
	}
	if err := tok.Error(); err != nil {
		fix := "start the broker (systemctl start mosquitto) or correct mqtt.broker"
		if strings.Contains(err.Error(), "Authoriz") || strings.Contains(err.Error(), "password") {
			fix = "correct mqtt.username and mqtt.password (or password_env) for this broker"
		}
		return []finding{{Check: "broker", Status: statusFail, Detail: fmt.Sprintf("%s: %v", o.Broker, err), Fix: fix}}
	}
	c.Disconnect(100)
	who := "anonymously"
	if o.Username != "" {
		who = "as " + o.Username
	}
	conf := env.mosquittoConf
	if conf == "" {
		conf = mosquittoConf
	}
	return append([]finding{{Check: "broker", Status: statusOK, Detail: fmt.Sprintf("%s: connected %s", o.Broker, who)}}, checkBrokerLimit(o.Broker, conf)...)
}

func doctorTLS(caFile, certFile, keyFile string) (*tls.Config, error) {
	tc := &tls.Config{}
	if caFile != "" {
		pem, err := os.ReadFile(caFile)
		if err != nil {
			return nil, fmt.Errorf("ca_file: %w", err)
		}
		tc.RootCAs = x509.NewCertPool()
		if !tc.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("ca_file %s: no PEM certificate in it", caFile)
		}
	}
	if certFile != "" {
		cert, err := tls.LoadX509KeyPair(certFile, keyFile)
		if err != nil {
			return nil, fmt.Errorf("cert_file, key_file: %w", err)
		}
		tc.Certificates = []tls.Certificate{cert}
	}
	return tc, nil
}

// checkDatabase writes a probe beside the database and looks at the
// free space of its disk.
func checkDatabase(ctx context.Context, cfg config.Config, env doctorEnv) []finding {
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
		return []finding{{Check: "database", Status: statusFail, Detail: fmt.Sprintf("%s: %v", existing, err)}}
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
		return []finding{{Check: "database", Status: statusFail, Detail: fmt.Sprintf("cannot write in %s: %v", existing, err), Fix: fix}}
	case free < env.minFree:
		return []finding{{Check: "database", Status: statusFail, Detail: fmt.Sprintf("%s: only %s free", existing, history.FormatBytes(free)),
			Fix: "free space on that disk (df -h " + existing + "), or shorten retention: in the configuration"}}
	}
	what := cfg.Database + " will be created"
	if fi, err := os.Stat(cfg.Database); err == nil {
		what = fmt.Sprintf("%s (%s)", cfg.Database, history.FormatBytes(databaseSize(cfg.Database, fi.Size())))
	}
	return []finding{{Check: "database", Status: statusOK, Detail: fmt.Sprintf("%s, writable, %s free", what, history.FormatBytes(free))}}
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
func checkClock(ctx context.Context, cfg config.Config, env doctorEnv) []finding {
	now := env.now()
	var out []finding
	if now.Before(clock.Floor) {
		out = append(out, finding{Check: "clock", Status: statusFail, Detail: fmt.Sprintf("the clock says %s: it was never set (a Pi has no real-time clock)", now.UTC().Format(time.RFC3339)),
			Fix: "let it synchronise: network up, then timedatectl set-ntp true; systemctl status systemd-timesyncd"})
	}
	if _, err := os.Stat(cfg.Database); err == nil {
		if store, err := history.OpenReadOnly(ctx, cfg.Database, nil); err == nil {
			a, err := store.Ahead(ctx, now)
			store.Close(context.Background())
			if err == nil && a.Count > 0 {
				// Either this clock is behind (readings stamped now come
				// before them) or a clock was ahead when they were stamped.
				out = append(out, finding{Check: "clock", Status: statusFail, Detail: clock.AheadText(a, now), Fix: clock.AheadFix()})
			}
		}
	}
	if sync, err := env.run(ctx, "timedatectl", "show", "-p", "NTPSynchronized", "--value"); err == nil {
		if sync == "no" {
			out = append(out, finding{Check: "clock", Status: statusWarn, Detail: "not synchronised with NTP", Fix: "timedatectl set-ntp true; check the network"})
		}
	}
	if len(out) == 0 {
		out = append(out, finding{Check: "clock", Status: statusOK, Detail: now.UTC().Format(time.RFC3339)})
	}
	return out
}

// checkService asks systemd how the service is.
func checkService(ctx context.Context, cfg config.Config, env doctorEnv) []finding {
	state, err := env.run(ctx, "systemctl", "is-active", "climated.service")
	switch {
	case state == "active":
		return []finding{{Check: "service", Status: statusOK, Detail: "climated.service is active"}}
	case state == "failed":
		return []finding{{Check: "service", Status: statusFail, Detail: "climated.service has failed", Fix: "journalctl -u climated -n 50 says why; then systemctl restart climated"}}
	case state == "inactive" || state == "activating" || state == "deactivating":
		return []finding{{Check: "service", Status: statusWarn, Detail: "climated.service is " + state, Fix: "sudo systemctl enable --now climated"}}
	case err != nil && state == "":
		return []finding{{Check: "service", Status: statusSkip, Detail: fmt.Sprintf("no systemd to ask: %v", err)}}
	}
	return []finding{{Check: "service", Status: statusWarn, Detail: "climated.service: " + state, Fix: "install it: sudo apt install ./climated_*.deb, or scripts/install.sh"}}
}

// checkToken: a token file others can read stops the hub from starting.
func checkToken(ctx context.Context, cfg config.Config, env doctorEnv) []finding {
	path := cfg.TokenPath()
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist) && cfg.NeedsToken():
		return []finding{{Check: "token", Status: statusOK, Detail: path + " will be created at the first start (mode 0600)"}}
	case errors.Is(err, fs.ErrNotExist):
		return []finding{{Check: "token", Status: statusSkip, Detail: "not needed: the hub listens on loopback only"}}
	case err != nil:
		return []finding{{Check: "token", Status: statusFail, Detail: err.Error(), Fix: "run the doctor as the service's user or root (sudo climated doctor)"}}
	case fi.Mode().Perm()&0o077 != 0:
		return []finding{{Check: "token", Status: statusFail, Detail: fmt.Sprintf("%s is readable by others (mode %04o): the hub refuses to start", path, fi.Mode().Perm()), Fix: "chmod 600 " + path}}
	}
	return []finding{{Check: "token", Status: statusOK, Detail: fmt.Sprintf("%s, mode %04o", path, fi.Mode().Perm())}}
}

// checkListen says who can reach the address, and whether the port is
// free or held by a hub.
func checkListen(ctx context.Context, cfg config.Config, env doctorEnv) []finding {
	host, port, _ := net.SplitHostPort(cfg.Listen)
	who := "only programs on this machine (loopback)"
	if cfg.NeedsToken() {
		who = "other machines too; every request needs the bearer token (climated token)"
		if host == "" || host == "0.0.0.0" || host == "::" {
			who = "every network this machine is on; every request needs the bearer token (climated token)"
		}
	}
	ln, err := net.Listen("tcp", cfg.Listen)
	if err == nil {
		ln.Close()
		return []finding{{Check: "listen", Status: statusOK, Detail: fmt.Sprintf("%s is free (no hub serving now); reachable from %s", cfg.Listen, who)}}
	}
	if !errors.Is(err, syscall.EADDRINUSE) {
		return []finding{{Check: "listen", Status: statusFail, Detail: fmt.Sprintf("%s: %v", cfg.Listen, err), Fix: "choose an address of this machine in listen: (e.g. " + config.DefaultListen + ")"}}
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
			return []finding{{Check: "listen", Status: statusOK, Detail: fmt.Sprintf("a hub answers at %s (/healthz %d); reachable from %s", cfg.Listen, resp.StatusCode, who)}}
		}
	}
	return []finding{{Check: "listen", Status: statusFail, Detail: fmt.Sprintf("%s is held by another program, not a hub", cfg.Listen),
		Fix: "see which: ss -ltnp 'sport = :" + port + "'; stop it or choose another listen: address"}}
}
