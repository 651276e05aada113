package mcptest

import (
	"context"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Connect connects a client to transport, closed when the test ends.
func Connect(t testing.TB, transport sdk.Transport) *sdk.ClientSession {
	t.Helper()
	return ConnectWith(t, transport, nil)
}

// ConnectWith is Connect with the client's opts.
func ConnectWith(t testing.TB, transport sdk.Transport, opts *sdk.ClientOptions) *sdk.ClientSession {
	t.Helper()
	return ConnectAt(t, transport, opts, "")
}

// ConnectAt connects a client that asks for protocol version (the SDK's
// newest when empty).
func ConnectAt(t testing.TB, transport sdk.Transport, opts *sdk.ClientOptions, version string) *sdk.ClientSession {
	t.Helper()
	// The SSE client ties its event stream to this context, so it must
	// outlive the session.
	c := sdk.NewClient(&sdk.Implementation{Name: "climated-test", Version: "1"}, opts)
	cs, err := c.Connect(context.Background(), transport, &sdk.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}
