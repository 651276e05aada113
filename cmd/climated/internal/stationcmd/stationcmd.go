// Package stationcmd is `climated station`: the settings to type into a
// weather station's "customized server" page so that it uploads to this
// hub.
package stationcmd

import (
	"fmt"
	"io"
	"net"
	"strings"

	"github.com/climated/climated/cmd/climated/internal/cli"
	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/cmd/climated/internal/front"
	"github.com/climated/climated/cmd/climated/internal/hubfile"
	"github.com/climated/climated/cmd/climated/internal/token"
	"github.com/climated/climated/sensors/station"
)

// Run is `climated station [--config FILE]`.
func Run(args []string, stdout, stderr io.Writer) error {
	cfg, err := cli.NewDataFlags("station", stdout, stderr).Config(args, stderr)
	if err != nil {
		return err
	}
	if cfg.Station == nil {
		return fmt.Errorf("the configuration has no station: section: add one (climated config example shows it), restart the hub, then run this again")
	}
	secret, err := token.LoadOrCreate(cfg.StationSecretPath())
	if err != nil {
		return config.ExplainAccess(cfg.StationSecretPath(), "climated station", err)
	}
	if info, ok := hubfile.Read(cfg.Database); ok {
		cfg.Listen = info.Listen // the running hub's own address: it may have been started with --listen
	}
	addrs, _ := net.InterfaceAddrs()
	return Print(stdout, cfg, secret, addrs)
}

// Print writes the settings for the hub of cfg, whose upload path holds
// secret, reachable at the addresses of addrs.
func Print(w io.Writer, cfg config.Config, secret string, addrs []net.Addr) error {
	host, port, err := net.SplitHostPort(cfg.Listen)
	if err != nil {
		return fmt.Errorf("listen %q: %w", cfg.Listen, err)
	}
	hosts := lanHosts(host, addrs)
	if len(hosts) == 0 {
		return fmt.Errorf("the hub listens on %s, which a station on the LAN cannot reach: set listen: 0.0.0.0:%s (every other request then needs the token), restart, and run this again", cfg.Listen, port)
	}
	path := station.Path(secret)
	fmt.Fprintf(w, "# Ecowitt gateways and consoles (the Ecowitt or WS View Plus app: Weather Services > Customized; a GW2000's web page: Weather Services)\n")
	fmt.Fprintf(w, "  Customized:        Enable\n  Protocol Type:     Ecowitt\n")
	fmt.Fprintf(w, "  Server IP/Host:    %s\n  Path:              %sdata/report/\n  Port:              %s\n  Upload Interval:   16 (seconds; up to 60)\n", strings.Join(hosts, " or "), path, port)
	fmt.Fprintf(w, "# Ambient Weather consoles, and any station set to the Weather Underground protocol\n")
	fmt.Fprintf(w, "  Server IP/Host:    %s\n  Path:              %sweatherstation/updateweatherstation.php?\n  Port:              %s\n  Station ID, Key:   any (the ID names the station)\n", hosts[0], path, port)
	fmt.Fprintf(w, "The path is the station's password: it can send neither TLS nor a token. Keep it, or delete %s and restart the hub for a new one.\n", cfg.StationSecretPath())
	fmt.Fprintf(w, "station.passkeys in the configuration lets only the stations named there (PASSKEY or ID) upload.\n")
	return nil
}

// lanHosts are the addresses a station on the LAN reaches a listener on
// host at: host itself, or, for every address, this machine's IPv4 ones.
func lanHosts(host string, addrs []net.Addr) []string {
	if host != "" && host != "0.0.0.0" && host != "::" {
		if front.IsLoopback(host) {
			return nil
		}
		return []string{host}
	}
	var out []string
	for _, a := range addrs {
		if in, ok := a.(*net.IPNet); ok && in.IP.To4() != nil && in.IP.IsGlobalUnicast() && !in.IP.IsLoopback() {
			out = append(out, in.IP.String())
		}
	}
	return out
}
