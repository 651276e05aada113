package connect

import (
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// inspectorNode is the oldest Node the MCP Inspector runs on (its
// package.json's engines: node >=22.19.0); on an older one its --cli
// fails before it connects.
var inspectorNode = [3]int{22, 19, 0}

// NodeVersion is what `node --version` prints on this machine, "" when
// there is no node; a variable so that tests give their own, whatever
// Node the machine they run on has.
var NodeVersion = func() string {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "node", "--version").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// nodeAdvice says what stands between this machine's Node (as `node
// --version` printed it, "" for none) and the Inspector; "" when nothing.
func nodeAdvice(v string) string {
	if v == "" {
		return "This machine has no node on its PATH: the Inspector needs Node 22.19 or later (nodejs.org, or your distribution's nodejs package if new enough)."
	}
	got, ok := parseNode(v)
	if !ok {
		return "node --version printed " + strconv.Quote(v) + ", which is no version this can read: the Inspector needs Node 22.19 or later."
	}
	for i := range got {
		if got[i] != inspectorNode[i] {
			if got[i] > inspectorNode[i] {
				return ""
			}
			return fmt.Sprintf("This machine's Node is %s: the Inspector needs 22.19 or later, and on an older one it stops before it connects. Install a newer Node first (nodejs.org, or nvm install 22).", v)
		}
	}
	return ""
}

// parseNode reads "v22.19.0" as its three numbers.
func parseNode(v string) ([3]int, bool) {
	var out [3]int
	parts := strings.Split(strings.TrimPrefix(v, "v"), ".")
	if len(parts) != 3 {
		return out, false
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return out, false
		}
		out[i] = n
	}
	return out, true
}
