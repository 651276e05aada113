package connect

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Client is what climated knows of one MCP client: where it keeps its
// servers and in what shape. Each shape follows the client's own
// documentation (links in the recipe text).
type Client struct {
	ID, Title string
	Files     map[string]string // GOOS → the client's file; none: configured in its UI
	Key       string            // the object in that file that maps names to servers
	Entry     func(t Target) any
	Inputs    func(t Target) []vscodeInput // prompts VS Code asks before it starts the server
	Notes     func(t Target) []string      // how to use it, after the file's part
}

// The shapes of a server in the clients' files.
type stdioEntry struct {
	Type    string   `json:"type,omitempty"`
	Command string   `json:"command"`
	Args    []string `json:"args"`
}

type httpEntry struct {
	Type    string            `json:"type,omitempty"`
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers,omitempty"`
}

type vscodeInput struct {
	Type        string `json:"type"`
	ID          string `json:"id"`
	Description string `json:"description"`
	Password    bool   `json:"password"`
}

var goosNames = []struct{ goos, name string }{{"linux", "Linux"}, {"darwin", "macOS"}, {"windows", "Windows"}}

// stdio is the entry that starts climated mcp (local) or the bridge
// (remote), for clients that can only start commands.
func stdio(typ string) func(t Target) any {
	return func(t Target) any { return stdioEntry{Type: typ, Command: t.Command, Args: t.Args} }
}

// httpOr is the entry for clients that send headers themselves: the URL
// with the token from where the client expands it; the local hub through
// climated mcp, which needs no token and no listener.
func httpOr(typ, token string) func(t Target) any {
	return func(t Target) any {
		if !t.Remote {
			return stdioEntry{Type: map[string]string{"http": "stdio"}[typ], Command: t.Command, Args: t.Args}
		}
		e := httpEntry{Type: typ, URL: t.URL}
		if t.Token {
			e.Headers = map[string]string{"Authorization": "Bearer " + token}
		}
		return e
	}
}

// tokenHow says where the bearer token comes from.
func tokenHow(t Target, where string) []string {
	if !t.Remote || !t.Token {
		return nil
	}
	if t.TokenFile != "" && where == bridgeTokenWhere {
		return []string{"climated mcp --remote reads the hub's bearer token from " + t.TokenFile + ", which you may read: nothing to copy."}
	}
	return []string{"The hub's bearer token: on the hub, `" + t.TokenCommand() + "` prints it; " + where + "."}
}

const bridgeTokenWhere = "put it in ~/.config/climated/token (macOS: ~/Library/Application Support/climated/token, Windows: %AppData%\\climated\\token), mode 0600, where climated mcp --remote reads it"

var clients = []Client{
	{
		ID: "claude-desktop", Title: "Claude Desktop",
		Files: map[string]string{
			"linux":   "~/.config/Claude/claude_desktop_config.json",
			"darwin":  "~/Library/Application Support/Claude/claude_desktop_config.json",
			"windows": `%APPDATA%\Claude\claude_desktop_config.json`,
		},
		Key: "mcpServers", Entry: stdio(""),
		Notes: func(t Target) []string {
			return append(tokenHow(t, bridgeTokenWhere),
				"Open the file from Settings > Developer > Edit Config; restart Claude Desktop after a change.")
		},
	},
	{
		ID: "claude-code", Title: "Claude Code",
		Files: map[string]string{"linux": ".mcp.json", "darwin": ".mcp.json", "windows": ".mcp.json"},
		Key:   "mcpServers", Entry: httpOr("http", "${CLIMATED_TOKEN}"),
		Notes: func(t Target) []string {
			add := "claude mcp add " + t.Name + " -- " + t.commandLine()
			if t.Remote {
				add = "claude mcp add --transport http " + t.Name + " " + shellQuote(t.URL)
				if t.Token {
					add += ` --header "Authorization: Bearer $CLIMATED_TOKEN"`
				}
			}
			lines := []string{
				"The file is the project's (in the folder where you run claude; --write writes it there). Or, for yourself only:",
				"  " + add,
			}
			if t.Remote && t.Token {
				// anthropics/claude-code#48514: some versions drop the
				// configured headers; the bridge sends the token itself.
				lines = append(lines, "A Claude Code that does not send the header (the hub answers 401) works through the bridge:",
					"  claude mcp add "+t.Name+" -- "+t.commandLine())
				return append(lines, tokenHow(t, "export it as CLIMATED_TOKEN before starting claude (the bridge also reads it from ~/.config/climated/token)")...)
			}
			return append(lines, tokenHow(t, "export it as CLIMATED_TOKEN before starting claude")...)
		},
	},
	{
		ID: "vscode", Title: "VS Code (Copilot agent mode)",
		Files: map[string]string{
			"linux":   "~/.config/Code/User/mcp.json",
			"darwin":  "~/Library/Application Support/Code/User/mcp.json",
			"windows": `%APPDATA%\Code\User\mcp.json`,
		},
		Key: "servers", Entry: httpOr("http", "${input:climated-token}"),
		Inputs: func(t Target) []vscodeInput {
			if !t.Remote || !t.Token {
				return nil
			}
			return []vscodeInput{{Type: "promptString", ID: "climated-token", Description: "climated bearer token (" + t.TokenCommand() + " on the hub)", Password: true}}
		},
		Notes: func(t Target) []string {
			lines := []string{"That is the user configuration (MCP: Open User Configuration); a workspace's is .vscode/mcp.json, in the same shape."}
			if !t.Remote {
				js, _ := json.Marshal(struct {
					Name string `json:"name"`
					stdioEntry
				}{t.Name, stdioEntry{Type: "stdio", Command: t.Command, Args: t.Args}})
				lines = append(lines, "Or from a shell:", "  code --add-mcp "+shellQuote(string(js)))
			}
			return lines
		},
	},
	{
		ID: "cursor", Title: "Cursor",
		Files: map[string]string{"linux": "~/.cursor/mcp.json", "darwin": "~/.cursor/mcp.json", "windows": `%USERPROFILE%\.cursor\mcp.json`},
		Key:   "mcpServers", Entry: httpOr("", "${env:CLIMATED_TOKEN}"),
		Notes: func(t Target) []string {
			return append([]string{"A project's own servers go in .cursor/mcp.json, in the same shape."},
				tokenHow(t, "set CLIMATED_TOKEN in the environment Cursor starts from")...)
		},
	},
	{
		ID: "inspector", Title: "MCP Inspector",
		Files: map[string]string{"linux": "mcp.json", "darwin": "mcp.json", "windows": "mcp.json"},
		Key:   "mcpServers", Entry: stdio(""),
		Notes: func(t Target) []string {
			var lines []string
			if advice := nodeAdvice(NodeVersion()); advice != "" {
				lines = append(lines, advice)
			}
			lines = append(lines, "Start it with that file (--write writes mcp.json here; the Inspector needs Node 22.19 or later):",
				"  npx @modelcontextprotocol/inspector --config mcp.json --server "+t.Name, "or without one:")
			if !t.Remote {
				return append(lines, "  npx @modelcontextprotocol/inspector "+t.commandLine())
			}
			cli := "  npx @modelcontextprotocol/inspector --cli " + shellQuote(t.URL) + " --transport http --method tools/list"
			if t.Token {
				cli += ` --header "Authorization: Bearer $CLIMATED_TOKEN"`
			}
			return append(append(lines, cli), tokenHow(t, bridgeTokenWhere+", and for --cli export it as CLIMATED_TOKEN")...)
		},
	},
	{
		ID: "home-assistant", Title: "Home Assistant (Model Context Protocol integration)",
		Notes: func(t Target) []string {
			if t.Public != "" {
				return append([]string{
					"1. Settings > Devices & services > Add integration > Model Context Protocol, then the server URL:",
					"     " + t.Public + "/mcp",
					"2. Home Assistant registers itself with the hub and sends your browser to the hub's consent page (through my.home-assistant.io: the My Home Assistant integration, part of default_config, must be on);",
				}, append(approve(t),
					"3. The hub's tools are then an LLM API a conversation agent may use: choose it in the agent's options (for example Anthropic or OpenAI Conversation > Configure).",
					"If Home Assistant says it cannot connect, or the consent page says \"Sign-in stopped\":",
					"   on the hub, journalctl -u climated | grep 'oauth sign-in refused' says why and what to do; climated doctor checks the tunnel.",
					"climated clients lists the sign-in; climated clients revoke CLIENT-ID ends it. Home Assistant then asks to sign in again: remove the integration and add it again.")...)
			}
			lines := []string{
				"Settings > Devices & services > Add integration > Model Context Protocol, then the server URL:",
				"  " + t.SSE,
			}
			if t.Token {
				lines = append(lines, "Home Assistant cannot send the hub's bearer token: it signs in with OAuth, which the hub offers at its https public_url (docs/remote.md). Give the hub one, then run:",
					"  climated connect home-assistant --remote https://hub.example.ts.net/mcp",
					"Without it, Home Assistant reaches only a hub on its own machine that listens on loopback (listen: 127.0.0.1:8473).")
			}
			return lines
		},
	},
	{
		ID: "generic", Title: "Any MCP client",
		Notes: func(t Target) []string {
			lines := []string{
				"stdio (a client that starts a command):",
				"  " + t.commandLine(),
				"Streamable HTTP (protocol 2025-03-26 and later):",
				"  " + t.URL,
				"HTTP+SSE (protocol 2024-11-05):",
				"  " + t.SSE,
			}
			if t.Token {
				lines = append(lines, "Over HTTP every request needs the header Authorization: Bearer TOKEN; on the hub, `"+t.TokenCommand()+"` prints TOKEN. climated mcp --remote reads it from $CLIMATED_TOKEN, --token-file FILE or ~/.config/climated/token.")
			}
			return lines
		},
	},
}

// IDs are the clients connect knows, by the names its command line takes.
func IDs() []string { return mapSlice(all(), func(c Client) string { return c.ID }) }

func all() []Client { return append(slices.Clip(clients), assistants...) }

// ByID is the client of that name.
func ByID(id string) (Client, bool) {
	for _, c := range all() {
		if c.ID == id {
			return c, true
		}
	}
	return Client{}, false
}

// snippet is the part of the client's file that names the hub.
func (c Client) snippet(t Target) ([]byte, error) {
	var v any = map[string]any{c.Key: map[string]any{t.Name: c.Entry(t)}}
	if c.Inputs != nil {
		if in := c.Inputs(t); in != nil {
			v = struct {
				Servers map[string]any `json:"servers"`
				Inputs  []vscodeInput  `json:"inputs"`
			}{map[string]any{t.Name: c.Entry(t)}, in}
		}
	}
	return indentJSON(v)
}

// Recipe prints what to do for the client.
func (c Client) Recipe(w io.Writer, t Target) error {
	where := "this machine's hub"
	if !t.Here {
		where = t.URL
	}
	fmt.Fprintf(w, "# %s → %s\n", c.Title, where)
	if c.Files != nil {
		fmt.Fprintln(w, "Add to the client's file (climated connect --write merges it):")
		for _, o := range goosNames {
			fmt.Fprintf(w, "  %-8s %s\n", o.name+":", c.Files[o.goos])
		}
		js, err := c.snippet(t)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%s\n", js)
	}
	var notes []string
	if c.Notes != nil {
		notes = c.Notes(t)
	}
	if c.Files != nil || c.ID == "generic" { // a client that may start climated mcp
		notes = append(notes, t.hereNote()...)
	}
	fmt.Fprintln(w, strings.Join(notes, "\n"))
	return nil
}

// indentJSON is json.MarshalIndent with lists of plain values on one
// line, as people write these files: "args": ["mcp", "--remote", "…"].
func indentJSON(v any) ([]byte, error) {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, err
	}
	lines := strings.Split(string(data), "\n")
	var out []string
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if !strings.HasSuffix(line, "[") {
			out = append(out, line)
			continue
		}
		j, items := i+1, []string(nil)
		for ; j < len(lines); j++ {
			item := strings.TrimSpace(lines[j])
			if strings.HasPrefix(item, "]") || strings.HasSuffix(item, "{") || strings.HasSuffix(item, "[") {
				break
			}
			items = append(items, item)
		}
		if j == len(lines) || !strings.HasPrefix(strings.TrimSpace(lines[j]), "]") {
			out = append(out, line) // a list of objects or lists stays as it is
			continue
		}
		out = append(out, line+strings.Join(items, " ")+strings.TrimSpace(lines[j]))
		i = j
	}
	return []byte(strings.Join(out, "\n")), nil
}
