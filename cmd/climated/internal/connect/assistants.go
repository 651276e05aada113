package connect

import (
	"net/url"

	"github.com/climated/climated/cmd/climated/internal/front"
)

// The assistants that reach MCP servers from their own servers, over the
// internet, and sign in with OAuth: they need the hub's public_url (a
// tunnel in front of it, docs/remote.md). Their menus are as their
// providers' help pages give them on 2026-12-03; the hub's side (the
// consent page, the token, climated clients) is this program's own.
var assistants = []Client{
	{
		ID: "claude-ai", Title: "Claude (claude.ai, Claude Desktop's connectors, the Claude apps)",
		Notes: func(t Target) []string {
			if t.Public == "" {
				return needsPublic(t, "Claude")
			}
			return append([]string{
				"1. On claude.ai: Settings > Connectors > Add custom connector.",
				"2. Name: " + t.Name + "; Remote MCP server URL:",
				"     " + t.Public + "/mcp",
				"   Leave Advanced settings empty: Claude registers itself with the hub.",
				"3. Add, then Connect: the hub's consent page opens in your browser. It names Claude and the page it returns to (claude.ai);",
			}, append(approve(t),
				"4. Claude shows climated as connected. In a chat, turn climated on under + > Connectors, and ask \"How warm is it right now?\"",
				"The Claude apps on phones and Claude Desktop use the connectors added on claude.ai.",
				"If Claude says \"Couldn't register with "+t.Name+"'s sign-in service\" or \"Couldn't connect\", or the consent page says \"Sign-in stopped\":",
				"   on the hub, journalctl -u climated | grep 'oauth sign-in refused' says why and what to do; climated doctor checks the tunnel.",
				"climated clients lists the sign-in; climated clients revoke CLIENT-ID ends it. To connect again, press Connect: Claude registers again.")...)
		},
	},
	{
		ID: "chatgpt", Title: "ChatGPT (apps and connectors, developer mode)",
		Notes: func(t Target) []string {
			if t.Public == "" {
				return needsPublic(t, "ChatGPT")
			}
			return append([]string{
				"1. In ChatGPT: Settings > Apps & Connectors > Advanced settings: turn on Developer mode (on Business and Enterprise plans a workspace admin allows it first).",
				"2. Settings > Apps & Connectors > Create: Name " + t.Name + ", MCP Server URL:",
				"     " + t.Public + "/mcp",
				"   Authentication: OAuth; confirm that you trust the application; Create.",
				"3. ChatGPT names itself to the hub (chatgpt.com's client document) and opens its consent page, naming ChatGPT and chatgpt.com;",
			}, append(approve(t),
				"4. ChatGPT lists climated's tools. In a chat, choose + > Developer mode and turn climated on.",
				"If ChatGPT says it could not connect, or the consent page says \"Sign-in stopped\":",
				"   on the hub, journalctl -u climated | grep 'oauth sign-in refused' says why and what to do; climated doctor checks the tunnel.",
				"climated clients lists the sign-in; climated clients revoke CLIENT-ID ends it. To connect again, press Connect on the app: ChatGPT signs in again.")...)
		},
	},
}

// approve is the owner's part on the hub's consent page.
func approve(t Target) []string {
	return []string{
		"   type the hub's token there (on the hub, `" + t.TokenCommand() + "` prints it) and press Allow.",
		"   It may always read the climate; tick \"Create and delete alerts\" to let it set alerts too (your choice, whatever it asked for).",
		"   The consent page is the hub's own, at your public_url: type the token nowhere else.",
	}
}

// needsPublic is what to do first for an assistant that signs in from
// the internet, when the hub has no https URL there.
func needsPublic(t Target, who string) []string {
	where := "This hub has no public_url."
	if t.Remote && !t.Here {
		where = t.URL + " is not an https URL the internet reaches."
	}
	// The file and the restart of the hub as it runs: the installed
	// service's, or the one run from a user's own configuration.
	file, restart := "/etc/climated/climated.yaml", "sudo systemctl restart climated"
	if t.Here && t.OwnHub {
		file, restart = "~/.config/climated/climated.yaml", "stop it (Ctrl-C) and run climated serve again"
		if t.ConfigFile != "" {
			file = t.ConfigFile
		}
	}
	return []string{
		who + " reaches MCP servers from its own servers, over the internet, and signs in with OAuth. " + where,
		"1. Put a tunnel in front of the hub, which keeps listening on plain HTTP on the LAN: Tailscale Funnel or Cloudflare Tunnel (docs/remote.md).",
		"2. On the hub, set the tunnel's https URL in " + file + ":",
		"     public_url: https://hub.example.ts.net",
		"   and restart it: " + restart,
		"3. climated doctor checks that the URL answers with the hub's sign-in metadata.",
		"4. Then: climated connect " + map[string]string{"Claude": "claude-ai", "ChatGPT": "chatgpt", "Home Assistant": "home-assistant"}[who] + " --remote https://hub.example.ts.net/mcp",
	}
}

// publicBase is the https origin of remote, where assistants on the
// internet could sign in: "" for plain HTTP or a loopback name.
func publicBase(u *url.URL) string {
	if u.Scheme != "https" || front.IsLoopback(u.Hostname()) {
		return ""
	}
	return (&url.URL{Scheme: u.Scheme, Host: u.Host}).String()
}
