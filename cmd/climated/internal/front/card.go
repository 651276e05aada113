package front

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
)

// PathServerCard is where the hub serves its MCP Server Card: the
// location the draft of SEP-2127 reserves beside the Streamable HTTP
// endpoint (<endpoint>/server-card).
const PathServerCard = "/mcp/server-card"

// cardSchema is the draft's schema URL, which a card must name.
const cardSchema = "https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json"

// maxCards bounds the cards kept, one per Host header a client used.
const maxCards = 16

// Card is what the Server Card says of the hub besides what the front
// knows itself (its URLs and how a client signs in).
type Card struct {
	Version string
	// PublicURL, when set, is the base of the card's URLs; else each card
	// takes the Host of its request (which the front's checks passed).
	PublicURL string
	// Versions are the MCP protocol versions /mcp serves, SSEVersions
	// those of /sse.
	Versions, SSEVersions []string
}

// The card's shape (SEP-2127 draft, schema v2).
type (
	serverCard struct {
		Schema      string         `json:"$schema"`
		Name        string         `json:"name"`
		Version     string         `json:"version"`
		Title       string         `json:"title"`
		Description string         `json:"description"`
		WebsiteURL  string         `json:"websiteUrl"`
		Remotes     []cardRemote   `json:"remotes"`
		Meta        map[string]any `json:"_meta,omitempty"`
	}
	cardRemote struct {
		Type     string       `json:"type"`
		URL      string       `json:"url"`
		Headers  []cardHeader `json:"headers,omitempty"`
		Versions []string     `json:"supportedProtocolVersions,omitempty"`
	}
	cardHeader struct {
		Name        string `json:"name"`
		Description string `json:"description"`
		IsRequired  bool   `json:"isRequired"`
		IsSecret    bool   `json:"isSecret"`
	}
)

// cardAuth is how the card says a client signs in: the kind ("none",
// "bearer" or "oauth") under _meta, and the protected-resource metadata
// where OAuth is on; exactly what a 401 from /mcp and that metadata
// already tell anyone.
func (g *guard) cardAuth() (kind string, header []cardHeader, meta map[string]any) {
	switch {
	case g.oauth != nil:
		return "oauth", []cardHeader{{Name: "Authorization", IsRequired: true, IsSecret: true,
				Description: "Bearer token: an OAuth 2.1 access token (see the protected-resource metadata), or the hub's own token"}},
			map[string]any{"kind": "oauth", "resource_metadata": g.oauth.ResourceMetadataURL()}
	case g.hasToken:
		return "bearer", []cardHeader{{Name: "Authorization", IsRequired: true, IsSecret: true,
			Description: "Bearer <token>: climated token prints it on the hub"}}, map[string]any{"kind": "bearer"}
	}
	return "none", nil, map[string]any{"kind": "none"}
}

// serverCardHandler serves the card, public (no token: it tells only what
// a 401 and the metadata tell) behind the Host and Origin checks, so that
// neither a rebound name nor another site's page reads it; built once per
// base URL, with an ETag.
func (g *guard) serverCardHandler(c Card) http.Handler {
	var mu sync.Mutex
	cache := map[string][2]string{} // base URL → body, ETag
	return g.checkHeaders(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		base := strings.TrimSuffix(c.PublicURL, "/")
		if base == "" {
			base = "http://" + r.Host
		}
		mu.Lock()
		entry, ok := cache[base]
		if !ok {
			if len(cache) >= maxCards {
				clear(cache)
			}
			entry = g.buildCard(c, base)
			cache[base] = entry
		}
		mu.Unlock()
		w.Header().Set("Content-Type", "application/mcp-server-card+json")
		w.Header().Set("Cache-Control", "public, max-age=300")
		w.Header().Set("ETag", entry[1])
		if r.Header.Get("If-None-Match") == entry[1] {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Write([]byte(entry[0]))
	}))
}

// buildCard is the card with URLs at base, and its ETag.
func (g *guard) buildCard(c Card, base string) [2]string {
	_, headers, auth := g.cardAuth()
	card := serverCard{
		Schema: cardSchema, Name: "io.github.climated/climated", Version: c.Version,
		Title:       "climated home-climate hub",
		Description: "The house climate: current readings, history and alerts of every zone",
		WebsiteURL:  "https://github.com/climated/climated",
		Remotes: []cardRemote{
			{Type: "streamable-http", URL: base + "/mcp", Headers: headers, Versions: c.Versions},
			{Type: "sse", URL: base + "/sse", Headers: headers, Versions: c.SSEVersions},
		},
		Meta: map[string]any{"io.github.climated/auth": auth},
	}
	body, _ := json.MarshalIndent(card, "", "  ") // strings and slices of them: cannot fail
	sum := sha256.Sum256(body)
	return [2]string{string(body), `"` + hex.EncodeToString(sum[:12]) + `"`}
}
