package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// answer is one request to measure: a tool call, a resource read, a prompt
// or a dashboard request with its arguments.
type answer struct {
	label string // what the table calls it
	kind  string // tool, resource, template, prompt, dashboard
	of    string // the name the server lists it by (a tool's, a template's URI template …)
	call  func(ctx context.Context) (int, error)
}

// row is an answer as measured.
type row struct {
	Answer   string    `json:"answer"`
	Kind     string    `json:"kind"`
	Of       string    `json:"of"`
	MedianMS float64   `json:"median_ms"`
	TimesMS  []float64 `json:"times_ms"`
	Bytes    int       `json:"bytes"`
	Tokens   int       `json:"approx_tokens"`
	OverGoal bool      `json:"over_goal"`
	Error    string    `json:"error,omitempty"`
}

// skipped is a listed tool, resource or prompt that was not measured.
type skipped struct {
	Kind string `json:"kind"`
	Of   string `json:"of"`
	Why  string `json:"why"`
}

// measure calls a runs times, one call after another, and keeps the
// median time and the size of the last answer.
func measure(ctx context.Context, a answer, runs int, goal time.Duration) row {
	r := row{Answer: a.label, Kind: a.kind, Of: a.of}
	var times []time.Duration
	for range runs {
		cctx, cancel := context.WithTimeout(ctx, callTimeout)
		start := time.Now()
		n, err := a.call(cctx)
		d := time.Since(start)
		cancel()
		if err != nil {
			r.Error = err.Error()
			return r
		}
		times = append(times, d)
		r.TimesMS = append(r.TimesMS, ms(d))
		r.Bytes = n
	}
	slices.Sort(times)
	median := times[len(times)/2]
	if len(times)%2 == 0 {
		median = (times[len(times)/2-1] + times[len(times)/2]) / 2
	}
	r.MedianMS = ms(median)
	r.Tokens = (r.Bytes + 3) / 4
	r.OverGoal = median > goal
	return r
}

// callTimeout bounds one request: an answer slower than this has failed.
const callTimeout = 2 * time.Minute

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// The sizes are of what an assistant reads: a tool's text (its structured
// content where it has no text), a resource's contents, a prompt's
// messages with the resources they embed; a dashboard request's body.

func toolSize(res *sdk.CallToolResult) (int, error) {
	n := contentSize(res.Content)
	if res.IsError {
		return n, fmt.Errorf("tool error: %s", firstText(res.Content))
	}
	if n == 0 && res.StructuredContent != nil {
		b, err := json.Marshal(res.StructuredContent)
		return len(b), err
	}
	return n, nil
}

func contentSize(cs []sdk.Content) int {
	n := 0
	for _, c := range cs {
		switch c := c.(type) {
		case *sdk.TextContent:
			n += len(c.Text)
		case *sdk.EmbeddedResource:
			if c.Resource != nil {
				n += len(c.Resource.Text) + len(c.Resource.Blob)
			}
		case *sdk.ImageContent:
			n += len(c.Data)
		}
	}
	return n
}

func firstText(cs []sdk.Content) string {
	for _, c := range cs {
		if t, ok := c.(*sdk.TextContent); ok {
			return truncate(t.Text, 200)
		}
	}
	return "(no text)"
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

func resourceSize(res *sdk.ReadResourceResult) int {
	n := 0
	for _, c := range res.Contents {
		n += len(c.Text) + len(c.Blob)
	}
	return n
}

func promptSize(res *sdk.GetPromptResult) int {
	n := 0
	for _, m := range res.Messages {
		n += contentSize([]sdk.Content{m.Content})
	}
	return n
}

// bearer adds the hub's token to every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	if b.token == "" {
		return b.next.RoundTrip(r)
	}
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// get is a dashboard request: the size of its body, an error unless 200.
func get(ctx context.Context, hc *http.Client, url string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, resp.Body)
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	return int(n), err
}
