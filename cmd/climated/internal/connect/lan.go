package connect

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/climated/climated/cmd/climated/internal/discovery"
)

// ListHubs browses the LAN for MCP servers (_mcp._tcp, for
// discovery.DefaultBrowse) and prints each with the command that connects
// an assistant to it; climated connect does so when it is given neither a
// client nor --remote. A machine that cannot browse (no multicast
// interface) is told so in a line: the rest of the output stands.
func ListHubs(ctx context.Context, w io.Writer) {
	found, err := discovery.Browse(ctx, discovery.ServiceMCP)
	if err != nil {
		fmt.Fprintf(w, "Cannot look for hubs on the LAN: %v\n", err)
		return
	}
	if len(found) == 0 {
		fmt.Fprintf(w, "No hub answered on the LAN within %s (mDNS, _mcp._tcp). A hub announces itself when it listens beyond loopback (docs/discovery.md).\n", discovery.DefaultBrowse)
		return
	}
	fmt.Fprintf(w, "MCP servers on the LAN (mDNS, _mcp._tcp):\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, f := range found {
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", f.Instance, f.URL(), describe(f.TXT))
	}
	tw.Flush()
	fmt.Fprintf(w, "Connect an assistant to one: climated connect CLIENT --remote URL (CLIENT: %s).\n", strings.Join(IDs(), ", "))
}

// describe says how a found server signs clients in and which MCP
// versions it serves, from its TXT record.
func describe(txt map[string]string) string {
	var parts []string
	if a := txt["auth"]; a != "" {
		parts = append(parts, "auth "+a)
	}
	if v := txt["versions"]; v != "" {
		vs := strings.Split(v, ",")
		parts = append(parts, "MCP "+vs[0]+" to "+vs[len(vs)-1])
	}
	return strings.Join(parts, ", ")
}
