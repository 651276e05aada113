package testutil

import "net/http"

// Bearer is a RoundTripper that adds "Authorization: Bearer Token" to
// every request before Next (http.DefaultTransport when nil) sends it:
// an MCP client of the SDK's signed in with a token.
type Bearer struct {
	Token string
	Next  http.RoundTripper
}

func (b Bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.Token)
	next := b.Next
	if next == nil {
		next = http.DefaultTransport
	}
	return next.RoundTrip(r)
}
