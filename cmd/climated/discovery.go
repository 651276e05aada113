package main

import (
	"net"
	"os"
	"strings"

	"github.com/climated/climated/cmd/climated/internal/discovery"
	"github.com/climated/climated/mcp"
)

// startDiscovery announces the hub on the LAN (docs/discovery.md), as a
// part of the hub, when its configuration says so: through Avahi where
// avahi-daemon runs and the hub runs under its systemd unit (which hands
// the service file written here to Avahi), else with the built-in
// responder. A hub that cannot announce itself still serves: the failure
// is logged.
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
	h := announced(d)
	sock := d.avahiSocket
	if sock == "" {
		sock = discovery.AvahiSocket
	}
	if discovery.AvahiRunning(sock) {
		if dir := os.Getenv("RUNTIME_DIRECTORY"); dir != "" {
			path, err := discovery.WriteAvahiService(strings.Split(dir, ":")[0], h)
			if err == nil {
				log.Info("Avahi announces the hub on the LAN", "service_file", path, "as", "/etc/avahi/services/climated.service", "port", h.Port)
				return
			}
			log.Warn("cannot hand the hub's service to Avahi: the built-in responder announces it", "err", err)
		} else {
			log.Info("avahi-daemon runs, but not for this hub (no systemd unit): the built-in responder announces it beside Avahi")
		}
	}
	r, err := discovery.Listen(h, &discovery.Options{Logger: log})
	if err != nil {
		log.Warn("cannot announce the hub on the LAN", "err", err)
		return
	}
	d.hub.Start("discovery", r.Run)
}

// announced is what the LAN learns of the hub: its instance name, host,
// port and address, and for _mcp._tcp the path, protocol versions and
// how a client signs in.
func announced(d hubDeps) discovery.Hub {
	host := hostLabel()
	h := discovery.Hub{Instance: "climated on " + host, Host: host, Path: "/mcp", Versions: mcp.ProtocolVersions(), Auth: "bearer"}
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
