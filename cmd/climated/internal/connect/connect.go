package connect

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/climated/climated/cmd/climated/internal/bridge"
	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/cmd/climated/internal/front"
	"github.com/climated/climated/cmd/climated/internal/hubfile"
)

// Target is what a client needs to reach the hub.
type Target struct {
	Name    string
	Command string   // this binary, by absolute path: desktop apps start with a bare PATH
	Args    []string // climated mcp …
	Remote  bool
	URL     string // Streamable HTTP
	SSE     string // HTTP+SSE (2024-11-05)
	Token   bool   // the URL needs the bearer token
	// Here is true for this machine's own hub (no --remote); Answering,
	// when that hub answered on loopback, so the client reaches it over
	// HTTP or through the bridge, with every tool.
	Here, Answering bool
	// Public is the https origin assistants on the internet sign in at
	// (public_url, or the origin of an https --remote); "" when none.
	Public string
	// OwnHub: this machine's hub runs from a user's configuration, not
	// the installed service's, so its owner prints the token with a plain
	// climated token. TokenFile is that hub's token file when this user
	// may read it: climated mcp --remote is given it.
	OwnHub    bool
	TokenFile string
	// ConfigFile is the configuration this machine's hub runs from, as
	// found (or as the running hub said); "" when none was found.
	ConfigFile string
}

// TokenCommand is how the owner prints the hub's bearer token on the hub.
func (t Target) TokenCommand() string {
	if t.OwnHub {
		return "climated token"
	}
	return "sudo -u climated climated token"
}

// NewTarget is how a client reaches the hub of cfg: this machine's own
// through climated mcp (with --config where configFlag names a file other
// than the installed one), or the hub at remote through the bridge.
func NewTarget(cfg config.Config, configFlag, remote, name string) (Target, error) {
	exe, err := os.Executable()
	if err != nil {
		return Target{}, fmt.Errorf("find this program's path: %w", err)
	}
	if fromGoRun(exe) {
		return Target{}, errGoRun(exe)
	}
	t := Target{Name: name, Command: exe}
	if name == "" || strings.ContainsAny(name, " \t\"'/\\") {
		return t, fmt.Errorf("--name %q: want a plain name such as climated", name)
	}
	if remote != "" {
		u, err := bridge.ParseRemote(remote)
		if err != nil {
			return t, err
		}
		t.Remote, t.Token, t.Public = true, remoteNeedsToken(cfg, u), publicBase(u)
		t.URL = u.String()
		t.SSE = withPath(u, "/sse")
		t.Args = []string{"mcp", "--remote", t.URL}
		return t, nil
	}
	t.Args, t.Public = []string{"mcp"}, cfg.PublicURL
	// climated mcp finds the installed configuration by itself; any other
	// file must be named.
	if configFlag != "" && !config.Installed.IsInstalledConfig(configFlag) {
		abs, err := filepath.Abs(configFlag)
		if err != nil {
			return t, err
		}
		t.Args = append(t.Args, "--config", abs)
	}
	return hereTarget(t, cfg)
}

// hereTarget is how a client reaches this machine's own hub.
func hereTarget(t Target, cfg config.Config) (Target, error) {
	t.Here = true
	t.OwnHub = !config.Installed.IsInstalledConfig(cfg.From.Path)
	t.ConfigFile = cfg.From.Path
	// The running hub's own word first (it may have been started with
	// --listen, or another configuration), else the configuration's.
	if info, ok := hubfile.Read(cfg.Database); ok {
		base, err := url.Parse(info.URL)
		if err != nil {
			return t, fmt.Errorf("the running hub's address %q: %w", info.URL, err)
		}
		t.URL, t.SSE, t.Token, t.Public = withPath(base, "/mcp"), withPath(base, "/sse"), info.Token, info.PublicURL
		t.OwnHub, t.ConfigFile = !config.Installed.IsInstalledConfig(info.Config), info.Config
		return t.answering(cfg), nil
	}
	host, port, err := net.SplitHostPort(cfg.Listen)
	if err != nil {
		return t, fmt.Errorf("listen %q: %w", cfg.Listen, err)
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1" // a client on this machine
	}
	base := &url.URL{Scheme: "http", Host: net.JoinHostPort(host, port)}
	t.URL, t.SSE, t.Token = withPath(base, "/mcp"), withPath(base, "/sse"), cfg.NeedsToken()
	if hubAnswers(base.String()) {
		t = t.answering(cfg)
	}
	return t, nil
}

// answering is t for this machine's hub answering at t.URL: it has every
// tool (alerts included) and any user may reach it, so the client gets
// the same form as for a hub on the network, with the hub's token file
// when this user may read it (the owner's own hub).
func (t Target) answering(cfg config.Config) Target {
	t.Answering, t.Remote = true, true
	t.Args = []string{"mcp", "--remote", t.URL}
	if !t.Token {
		return t
	}
	if f, err := os.Open(cfg.TokenPath()); err == nil {
		f.Close()
		t.TokenFile = cfg.TokenPath()
		t.Args = append(t.Args, "--token-file", t.TokenFile)
	}
	return t
}

// hereNote says which form the client got for this machine's hub, and why.
func (t Target) hereNote() []string {
	switch {
	case !t.Here:
		return nil
	case t.Answering:
		return []string{"A hub answers at " + t.URL + ": the client reaches it there, with every tool (alerts included)."}
	default:
		return []string{"No hub answers at " + t.URL + " now: climated mcp reads the history read-only, without create_alert and delete_alert. With the hub running, run this again for the form that reaches it."}
	}
}

// remoteNeedsToken: a hub beyond loopback needs the token, and so does
// this machine's own hub reached on loopback when its configuration
// listens beyond loopback on that port (every request then needs it).
func remoteNeedsToken(cfg config.Config, u *url.URL) bool {
	if !front.IsLoopback(u.Hostname()) {
		return true
	}
	_, port, err := net.SplitHostPort(cfg.Listen)
	return err == nil && port == u.Port() && cfg.NeedsToken()
}

func withPath(u *url.URL, p string) string {
	v := *u
	v.Path, v.RawQuery = p, ""
	return v.String()
}

// commandLine is the target's command as a shell would take it.
func (t Target) commandLine() string {
	return strings.Join(slices.Concat([]string{shellQuote(t.Command)}, mapSlice(t.Args, shellQuote)), " ")
}

func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '-' || r == '.' || r == '_' || r == ':' || r == '=' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func mapSlice[T, U any](s []T, f func(T) U) []U {
	out := make([]U, len(s))
	for i, v := range s {
		out[i] = f(v)
	}
	return out
}

var errNoFile = errors.New("this client is configured in its own interface, not in a file")
