package main

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/climated/climated/internal/testutil"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/mcp"
	"github.com/climated/climated/mcp/transport"
)

// Bodies of the attack on the scope gate: a read-only token's tools/call
// of create_alert or delete_alert beside a decoy the gate could not decode
// (which made it pass the whole body on before).
var gateAttacks = map[string]string{
	"batch with an undecodable decoy": `[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_alert","arguments":{"zone":"Indoor","measurement":"Temperature","kind":"above","threshold":30}}},` +
		`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":"x"}]`,
	"notification decoy": `[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_alert","arguments":{"zone":"Indoor","measurement":"Temperature","kind":"above","threshold":31}}},` +
		`{"jsonrpc":"2.0","method":"notifications/initialized","params":[1]}]`,
	"delete behind a decoy": `[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"delete_alert","arguments":{"id":"house.co2"}}},` +
		`{"jsonrpc":"2.0","id":2,"method":"ping","params":7}]`,
	"decoy first": `[{"jsonrpc":"2.0","id":2,"method":"tools/list","params":"x"},` +
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_alert","arguments":{"zone":"Indoor","measurement":"Temperature","kind":"above","threshold":32}}}]`,
}

// TestScopeGateFailsClosed: on a served hub behind OAuth, a climate:read
// token sends each attack on a session of every protocol version the hub
// accepts, on /mcp and on /message: each is refused (400 or 403), and no
// rule was created or deleted.
func TestScopeGateFailsClosed(t *testing.T) {
	base, owner := oauthHub(t, nil)
	_, access := approvedClient(t, base, owner)
	before := ruleIDs(t, base, owner)
	for _, v := range transport.ProtocolVersions() {
		session := initSession(t, base+"/mcp", access, v)
		for name, body := range gateAttacks {
			hdr := map[string]string{"Authorization": "Bearer " + access, "Content-Type": "application/json",
				"Accept": "application/json, text/event-stream", "Mcp-Protocol-Version": v}
			if session != "" {
				hdr["Mcp-Session-Id"] = session
			}
			if s, text := call(t, "POST", base+"/mcp", hdr, body); s != 400 && s != 403 {
				t.Errorf("/mcp %s, %s: %d %.200s; want 400 or 403", v, name, s, text)
			}
		}
	}
	for _, v := range transport.SSEProtocolVersions() {
		endpoint := sseSession(t, base, access, v)
		for name, body := range gateAttacks {
			hdr := map[string]string{"Authorization": "Bearer " + access, "Content-Type": "application/json"}
			if s, text := call(t, "POST", base+endpoint, hdr, body); s != 400 && s != 403 {
				t.Errorf("/message %s, %s: %d %.200s; want 400 or 403", v, name, s, text)
			}
		}
	}
	if after := ruleIDs(t, base, owner); strings.Join(after, ",") != strings.Join(before, ",") {
		t.Errorf("the rules changed: %v, then %v", before, after)
	}
}

// initSession initializes a Streamable HTTP session of version with
// access; "" for 2026-07-28, which has none.
func initSession(t *testing.T, url, access, version string) string {
	t.Helper()
	if version >= "2026-07-28" {
		return ""
	}
	hdr := map[string]string{"Authorization": "Bearer " + access, "Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
	req, _ := http.NewRequest("POST", url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"`+version+`","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`))
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	id := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != 200 || id == "" {
		t.Fatalf("initialize %s: %d, session %q", version, resp.StatusCode, id)
	}
	hdr["Mcp-Session-Id"], hdr["Mcp-Protocol-Version"] = id, version
	if s, text := call(t, "POST", url, hdr, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); s != 202 {
		t.Fatalf("initialized %s: %d %s", version, s, text)
	}
	return id
}

// sseSession opens an HTTP+SSE session with access and initializes it at
// version; it returns the endpoint to post to. The stream stays open
// until the test ends.
func sseSession(t *testing.T, base, access, version string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/sse", nil)
	req.Header.Set("Authorization", "Bearer "+access)
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET /sse: %v %v", resp, err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	sc := bufio.NewScanner(resp.Body)
	endpoint := ""
	for endpoint == "" && sc.Scan() {
		if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			endpoint = data
		}
	}
	hdr := map[string]string{"Authorization": "Bearer " + access, "Content-Type": "application/json"}
	if s, text := call(t, "POST", base+endpoint, hdr, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"`+version+`","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`); s != 202 {
		t.Fatalf("SSE initialize %s: %d %s", version, s, text)
	}
	return endpoint
}

// ruleIDs lists the hub's alert rules as the owner sees them.
func ruleIDs(t *testing.T, base, owner string) []string {
	t.Helper()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "owner", Version: "1"}, nil).Connect(context.Background(),
		&sdk.StreamableClientTransport{Endpoint: base + "/mcp", HTTPClient: &http.Client{Transport: testutil.Bearer{Token: owner, Next: http.DefaultTransport}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	var list struct {
		Rules []struct {
			ID string `json:"id"`
		} `json:"rules"`
	}
	callJSON(t, cs, mcp.ToolListAlerts, nil, &list)
	var ids []string
	for _, r := range list.Rules {
		ids = append(ids, r.ID)
	}
	if len(ids) == 0 {
		t.Fatal("the hub lists no alert rule: the test could not see one deleted")
	}
	return ids
}
