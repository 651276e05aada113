package main

import (
	"context"
	"fmt"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/mcp"
)

// TestAppsThroughEveryCommand: the MCP Apps views and the tools' _meta
// reach a client as the hub serves them over Streamable HTTP, through
// climated mcp --remote (the bridge copies every message as it is) and
// from climated mcp over stdio beside the daemon: the extension in the
// capabilities, _meta.ui.resourceUri on get_history and get_climate,
// view_history for the view only, each view the same document, and
// get_climate's result with the house view's _meta.
func TestAppsThroughEveryCommand(t *testing.T) {
	cfg := demoConfig(t)
	h, _ := runHub(t, cfg)
	url := fmt.Sprintf("http://%s/mcp", h.Addr)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	direct := connectHTTP(t, ctx, url)
	want := map[string]string{}
	for _, uri := range []string{mcp.ViewHistoryURI, mcp.ViewHouseURI} {
		res, err := direct.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
		if err != nil || len(res.Contents) != 1 || res.Contents[0].MIMEType != mcp.AppMIMEType || len(res.Contents[0].Text) < 1000 {
			t.Fatalf("read %s over HTTP: %v %+v", uri, err, res)
		}
		want[uri] = res.Contents[0].Text
	}
	checkApps(t, ctx, "streamable HTTP", direct, want)
	bridged, stderr, err := bridgeClient(t, ctx, url, nil, nil)
	if err != nil {
		t.Fatalf("bridge: %v\n%s", err, stderr.String())
	}
	checkApps(t, ctx, "mcp --remote", bridged, want)
	cmd := climated("mcp", "--db", cfg.Database)
	stdio, err := sdk.NewClient(&sdk.Implementation{Name: "apps-test", Version: "1"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdio.Close() })
	checkApps(t, ctx, "stdio", stdio, want)
}

func connectHTTP(t *testing.T, ctx context.Context, url string) *sdk.ClientSession {
	t.Helper()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "apps-test", Version: "1"}, nil).
		Connect(ctx, &sdk.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// checkApps checks what a host with MCP Apps reads of the hub through cs.
func checkApps(t *testing.T, ctx context.Context, path string, cs *sdk.ClientSession, docs map[string]string) {
	t.Helper()
	if caps := cs.InitializeResult().Capabilities; caps == nil || caps.Extensions[mcp.AppsExtension] == nil {
		t.Errorf("%s: capabilities without %s", path, mcp.AppsExtension)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	views := map[string]string{}
	for _, tool := range tools.Tools {
		if ui, ok := tool.Meta["ui"].(map[string]any); ok {
			uri, _ := ui["resourceUri"].(string)
			if _, app := ui["visibility"]; app {
				uri += " app"
			}
			views[tool.Name] = uri
		}
	}
	want := map[string]string{"get_history": mcp.ViewHistoryURI, "get_climate": mcp.ViewHouseURI, "view_history": mcp.ViewHistoryURI + " app"}
	if fmt.Sprint(views) != fmt.Sprint(want) {
		t.Errorf("%s: tools with views %v, want %v", path, views, want)
	}
	for uri, doc := range docs {
		res, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
		if err != nil || res.Contents[0].MIMEType != mcp.AppMIMEType || res.Contents[0].Text != doc {
			t.Errorf("%s: read %s: %v (not the document served over HTTP)", path, uri, err)
		}
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "get_climate"})
	if err != nil || res.IsError {
		t.Fatalf("%s: get_climate: %v %+v", path, err, res)
	}
	if house, _ := res.Meta["climated/house"].(map[string]any); house["simulated"] != true || res.StructuredContent == nil {
		t.Errorf("%s: get_climate's _meta %v", path, res.Meta)
	}
}
