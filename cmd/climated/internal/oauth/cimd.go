package oauth

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/time/rate"
)

// Bounds of Client ID Metadata Documents (the client_id is an https URL
// the hub fetches): the numbers.
const (
	DefaultCIMDTimeout = 5 * time.Second
	DefaultCIMDTTL     = 10 * time.Minute // how long a fetched document is used
	maxCIMDBytes       = 5 << 10
	maxCIMDCached      = 64
	cimdRate           = rate.Limit(1) // fetches a second, after a burst
	cimdBurst          = 10
)

// cimd fetches and caches Client ID Metadata Documents, refusing any
// address a home network keeps to itself.
type cimd struct {
	client *http.Client
	lim    *rate.Limiter
	now    func() time.Time
	mu     sync.Mutex
	cache  map[string]cimdEntry
}

type cimdEntry struct {
	c       *Client
	fetched time.Time
}

func newCIMD(o *Options) *cimd {
	allow := o.CIMDAllowAddr
	if allow == nil {
		allow = publicAddr
	}
	d := &net.Dialer{Timeout: o.CIMDTimeout, Control: func(_, address string, _ syscall.RawConn) error {
		// The address actually dialled, after DNS: a name that resolves
		// to a private address is refused here, not before.
		ap, err := netip.ParseAddrPort(address)
		if err != nil || !allow(ap.Addr().Unmap()) {
			return fmt.Errorf("%s is not a public address", address)
		}
		return nil
	}}
	tr := &http.Transport{DialContext: d.DialContext, TLSClientConfig: &tls.Config{RootCAs: o.CIMDRootCAs},
		MaxResponseHeaderBytes: 8 << 10, DisableKeepAlives: true, Proxy: nil}
	return &cimd{
		client: &http.Client{Transport: tr, Timeout: o.CIMDTimeout,
			CheckRedirect: func(*http.Request, []*http.Request) error {
				return errors.New("the document redirects: serve it at its URL")
			}},
		lim: rate.NewLimiter(cimdRate, cimdBurst), now: o.Now, cache: map[string]cimdEntry{},
	}
}

// sharedSpace is carrier-grade NAT's (RFC 6598), which Tailscale uses:
// as private as 10/8 for a hub.
var sharedSpace = netip.MustParsePrefix("100.64.0.0/10")

// publicAddr refuses loopback, private, shared, link-local, unspecified
// and multicast addresses.
func publicAddr(a netip.Addr) bool {
	return a.IsGlobalUnicast() && !a.IsPrivate() && !a.IsLoopback() && !a.IsLinkLocalUnicast() && !sharedSpace.Contains(a)
}

// isCIMD reports whether id names its document: an https URL with a path.
func isCIMD(id string) bool {
	u, err := url.Parse(id)
	return err == nil && u.Scheme == "https" && u.Host != "" && u.Path != "" && u.Path != "/" && u.Fragment == "" && u.User == nil
}

// client is the document's client, from the cache or fetched.
func (m *cimd) get(ctx context.Context, id string) (*Client, error) {
	m.mu.Lock()
	e, ok := m.cache[id]
	m.mu.Unlock()
	if ok && m.now().Sub(e.fetched) < DefaultCIMDTTL {
		return e.c, nil
	}
	if !m.lim.Allow() {
		return nil, errors.New("too many client documents fetched: try again in a minute")
	}
	c, err := m.fetch(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("client document %s: %w", id, err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.cache) >= maxCIMDCached {
		clear(m.cache) // simple and bounded; a refetch costs one request
	}
	m.cache[id] = cimdEntry{c, m.now()}
	return c, nil
}

// cimdDoc is what the hub reads of a document.
type cimdDoc struct {
	ClientID                string   `json:"client_id"`
	ClientName              string   `json:"client_name"`
	RedirectURIs            []string `json:"redirect_uris"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method"`
	// AuthMethods lists every method the client can use besides the one
	// it prefers: ChatGPT's documents prefer private_key_jwt and list
	// none too (django-oauth/django-oauth-toolkit#1857).
	AuthMethods []string `json:"token_endpoint_auth_methods_supported"`
}

func (m *cimd) fetch(ctx context.Context, id string) (*Client, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, id, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := m.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("answered %s", resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxCIMDBytes+1))
	if err != nil {
		return nil, err
	}
	if len(body) > maxCIMDBytes {
		return nil, fmt.Errorf("larger than %d bytes", maxCIMDBytes)
	}
	return parseCIMD(id, body)
}

func parseCIMD(id string, body []byte) (*Client, error) {
	var doc cimdDoc
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, fmt.Errorf("not a JSON document: %w", err)
	}
	if doc.ClientID != id {
		return nil, fmt.Errorf("its client_id %q is not its URL", doc.ClientID)
	}
	if m := doc.TokenEndpointAuthMethod; m != "" && m != "none" && !slices.Contains(doc.AuthMethods, "none") {
		return nil, fmt.Errorf("token_endpoint_auth_method %q, and none is not among its token_endpoint_auth_methods_supported: the hub has public clients only", m)
	}
	if len(doc.RedirectURIs) == 0 || len(doc.RedirectURIs) > maxRedirectURIs {
		return nil, fmt.Errorf("give 1 to %d redirect_uris", maxRedirectURIs)
	}
	for _, u := range doc.RedirectURIs {
		if err := checkRedirectURI(u); err != nil {
			return nil, err
		}
	}
	name := doc.ClientName
	if name == "" {
		name = strings.TrimPrefix(id, "https://")
	}
	return &Client{ID: id, Name: cleanName(name), RedirectURIs: doc.RedirectURIs}, nil
}
