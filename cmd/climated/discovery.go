package main

import (
	"cmp"
	"context"
	"log/slog"
	"net"
	"os"
	"strings"
	"time"

	"github.com/climated/climated/cmd/climated/internal/discovery"
	"github.com/climated/climated/mcp/transport"
)

// avahiWait is how long the hub waits for its unit to hand its service
// file to Avahi (ExecStartPost, right after the hub is ready).
const avahiWait = 10 * time.Second

// avahiSeams are where the hub looks for Avahi; zero fields are the real
// places, tests set others.
type avahiSeams struct {
	Socket    string        // avahi-daemon's socket: discovery.AvahiSocket
	Installed string        // where the unit puts the service file: discovery.AvahiInstalled
	Wait      time.Duration // how long the unit may take: avahiWait
}

func (a avahiSeams) orDefaults() avahiSeams {
	a.Socket = cmp.Or(a.Socket, discovery.AvahiSocket)
	a.Installed = cmp.Or(a.Installed, discovery.AvahiInstalled)
	a.Wait = cmp.Or(a.Wait, avahiWait)
	return a
}

// startDiscovery announces the hub on the LAN (docs/discovery.md), as a
// part of the hub, when its configuration says so: through Avahi where
// avahi-daemon runs and the hub runs under the package's systemd unit,
// which hands the service file written here to Avahi, else (and when the
// unit does not hand it over in time) with the built-in responder. A hub
// that cannot announce itself still serves: the failure is logged.
func startDiscovery(d hubDeps) {
	log := d.log.With("component", "discovery")
	switch {
	case d.cfg.Discovery != nil && !*d.cfg.Discovery:
		log.Info("not announced on the LAN: discovery is false")
		return
	case !d.cfg.ListensBeyondLoopback():
		// The default: not worth a line at every start.
		log.Debug("not announced on the LAN: the hub listens on loopback only", "listen", d.cfg.Listen)
		return
	}
	h, a := announced(d), d.avahi.orDefaults()
	if want, ok := writeForAvahi(a, h, log); ok {
		d.hub.Start("discovery", func(ctx context.Context) error { return avahiOrRespond(ctx, a, want, h, log) })
		return
	}
	d.hub.Start("discovery", func(ctx context.Context) error { return respond(ctx, h, log) })
}

// writeForAvahi writes the hub's Avahi service file into its runtime
// directory, for the unit to hand to Avahi, when avahi-daemon runs and
// the hub runs under systemd; it returns what it wrote.
func writeForAvahi(a avahiSeams, h discovery.Hub, log *slog.Logger) ([]byte, bool) {
	if !discovery.AvahiRunning(a.Socket) {
		return nil, false
	}
	dir, _, _ := strings.Cut(os.Getenv("RUNTIME_DIRECTORY"), ":")
	if dir == "" {
		log.Info("avahi-daemon runs, but the hub is not its systemd unit: the built-in responder announces it beside Avahi")
		return nil, false
	}
	path, err := discovery.WriteAvahiService(dir, h)
	if err != nil {
		log.Warn("cannot write the hub's service file for Avahi: the built-in responder announces it", "err", err)
		return nil, false
	}
	log.Debug("wrote the service file for Avahi", "path", path)
	return discovery.AvahiService(h), true
}

// avahiOrRespond waits for the unit to hand the service file want to
// Avahi: then Avahi announces the hub; else the built-in responder does.
func avahiOrRespond(ctx context.Context, a avahiSeams, want []byte, h discovery.Hub, log *slog.Logger) error {
	if discovery.AvahiHas(ctx, a.Installed, want, a.Wait) {
		log.Info("Avahi announces the hub on the LAN", "service_file", a.Installed, "port", h.Port)
		<-ctx.Done()
		return nil
	}
	if ctx.Err() != nil {
		return nil
	}
	log.Warn("Avahi was not handed the hub's service file (the package's systemd unit does it): the built-in responder announces the hub", "service_file", a.Installed, "waited", a.Wait)
	return respond(ctx, h, log)
}

// respond runs the built-in responder until ctx ends.
func respond(ctx context.Context, h discovery.Hub, log *slog.Logger) error {
	r, err := discovery.Listen(h, &discovery.Options{Logger: log})
	if err != nil {
		log.Warn("cannot announce the hub on the LAN", "err", err)
		return nil
	}
	return r.Run(ctx)
}

// announced is what the LAN learns of the hub: its instance name, host,
// port and address, and for _mcp._tcp the path, protocol versions and
// how a client signs in.
func announced(d hubDeps) discovery.Hub {
	host := hostLabel()
	h := discovery.Hub{Instance: "climated on " + host, Host: host, Path: "/mcp", Versions: transport.ProtocolVersions(), Auth: "bearer"}
	if d.cfg.PublicURL != "" {
		h.Auth = "oauth"
	}
	if ta, ok := d.ln.Addr().(*net.TCPAddr); ok {
		h.Port = ta.Port
		if !ta.IP.IsUnspecified() {
			h.IP = ta.IP
		}
	}
	return h
}

// hostLabel is this machine's name as one DNS label: its first part, in
// letters, digits and hyphens.
func hostLabel() string {
	name, _ := os.Hostname()
	name, _, _ = strings.Cut(strings.ToLower(name), ".")
	name = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' {
			return r
		}
		return '-'
	}, name)
	if name = strings.Trim(name, "-"); name == "" {
		return "climated"
	}
	return name
}
