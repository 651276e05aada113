package oauth

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
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
// the hub fetches): at most 5 KB, fetched within 5 s, from public
// addresses only.
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
	log    *slog.Logger
	// fetches limits the fetches each source (perclient.Source) asks
	// for, under a ceiling for all sources: one who floods the hub with
	// bogus client_ids spends their own budget. A budget kept for the
	// documents fetched before would tell a stranger, who spent the
	// other, which assistants the household signed in with.
	fetches *perSource
	failed  map[string]cimdFailure
	now     func() time.Time
	mu      sync.Mutex
	cache   map[string]cimdEntry
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
			return errNotPublic
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
		fetches: newPerSource(cimdRate, cimdBurst, o.Now), log: o.Logger,
		now: o.Now, cache: map[string]cimdEntry{}, failed: map[string]cimdFailure{},
	}
}

// sharedSpace is carrier-grade NAT's (RFC 6598), which Tailscale uses:
// as private as 10/8 for a hub.
var sharedSpace = netip.MustParsePrefix("100.64.0.0/10")

// publicAddr refuses loopback, private, shared, link-local, unspecified
// and multicast addresses, and the IPv6 forms that carry an IPv4 address
// (IPv4-compatible ::/96, NAT64 64:ff9b::/96 and 64:ff9b:1::/48, 6to4
// 2002::/16, Teredo 2001::/32) unless the IPv4 address they carry is
// public itself: a router that translates them reaches the IPv4 one.
func publicAddr(a netip.Addr) bool {
	a = a.Unmap()
	if a.IsLoopback() || a.IsUnspecified() || thisNetwork.Contains(a) {
		return false
	}
	if v4, ok := embeddedIPv4(a); ok && !publicAddr(v4) {
		return false
	}
	if nat64Local.Contains(a) {
		// A local-use prefix may be /48 to /96 long, and RFC 6052 §2.2
		// puts the IPv4 address elsewhere for each length: every place
		// must hold a public one.
		b := a.As16()
		for _, v4 := range [][4]byte{{b[6], b[7], b[9], b[10]}, {b[7], b[9], b[10], b[11]}, {b[9], b[10], b[11], b[12]}} {
			if !publicAddr(netip.AddrFrom4(v4)) {
				return false
			}
		}
	}
	if _, ok := embeddedIPv4(a); ok {
		return true
	}
	return a.IsGlobalUnicast() && !a.IsPrivate() && !a.IsLoopback() && !a.IsLinkLocalUnicast() && !sharedSpace.Contains(a)
}

// IPv6 prefixes whose addresses carry an IPv4 address, and where.
var (
	thisNetwork  = netip.MustParsePrefix("0.0.0.0/8") // RFC 791: "this host on this network"
	v4Compatible = netip.MustParsePrefix("::/96")
	nat64        = netip.MustParsePrefix("64:ff9b::/96")
	nat64Local   = netip.MustParsePrefix("64:ff9b:1::/48")
	sixToFour    = netip.MustParsePrefix("2002::/16")
	teredo       = netip.MustParsePrefix("2001::/32")
)

// embeddedIPv4 is the IPv4 address an IPv6 address of those forms carries
// (Teredo's client address is stored inverted, RFC 4380 §4).
func embeddedIPv4(a netip.Addr) (netip.Addr, bool) {
	if !a.Is6() {
		return netip.Addr{}, false
	}
	b := a.As16()
	switch {
	case v4Compatible.Contains(a) || nat64.Contains(a) || nat64Local.Contains(a):
		return netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}), true
	case sixToFour.Contains(a):
		return netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]}), true
	case teredo.Contains(a):
		return netip.AddrFrom4([4]byte{^b[12], ^b[13], ^b[14], ^b[15]}), true
	}
	return netip.Addr{}, false
}

// isCIMD reports whether id names its document: an https URL with a path.
func isCIMD(id string) bool {
	u, err := url.Parse(id)
	return err == nil && u.Scheme == "https" && u.Host != "" && u.Path != "" && u.Path != "/" && u.Fragment == "" && u.User == nil
}

// cimdFailure is a fetch that failed, kept for cimdFailTTL so that the
// same URL asked again costs no fetch.
type cimdFailure struct {
	err error
	at  time.Time
}

// Bounds of the failures remembered.
const (
	cimdFailTTL   = time.Minute
	maxCIMDFailed = 256
)

// get is the document's client, from the cache or fetched on the budget
// of source, who asks. A URL whose fetch failed a minute ago gets the
// same answer without a fetch.
func (m *cimd) get(ctx context.Context, source, id string) (*Client, error) {
	now := m.now()
	m.mu.Lock()
	e, ok := m.cache[id]
	f, failed := m.failed[id]
	m.mu.Unlock()
	switch {
	case ok && now.Sub(e.fetched) < DefaultCIMDTTL:
		return e.c, nil
	case failed && now.Sub(f.at) < cimdFailTTL:
		return nil, f.err
	case !m.fetches.allowSource(source):
		return nil, errors.New("too many client documents fetched: try again in a minute")
	}
	c, err := m.fetch(ctx, id)
	if err != nil {
		err = fmt.Errorf("client document %s: %w", id, m.plain(id, err))
		m.remember(id, cimdFailure{err, now})
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.cache) >= maxCIMDCached {
		clear(m.cache) // simple and bounded; a refetch costs one request
	}
	m.cache[id] = cimdEntry{c, now}
	delete(m.failed, id)
	return c, nil
}

func (m *cimd) remember(id string, f cimdFailure) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.failed) >= maxCIMDFailed {
		for k, old := range m.failed {
			if f.at.Sub(old.at) >= cimdFailTTL {
				delete(m.failed, k)
			}
		}
		if len(m.failed) >= maxCIMDFailed {
			clear(m.failed)
		}
	}
	m.failed[id] = f
}

// errNotPublic is the dialer's refusal of an address a home keeps to
// itself.
var errNotPublic = errors.New("its address is not a public address: a client document must be on the internet")

// plain is what the consent page says of a failed fetch: the reason in
// words, without resolver addresses or TLS internals, which go to the
// log. The hub's own refusals (size, redirect, content) are plain already.
func (m *cimd) plain(id string, err error) error {
	var dns *net.DNSError
	var ne net.Error
	var cert *tls.CertificateVerificationError
	var reason string
	var ue *url.Error
	if errors.As(err, &ue) && !errors.As(ue.Err, &ne) {
		return ue.Err // the hub's own refusal (a redirect), without the URL again
	}
	switch {
	case errors.Is(err, errNotPublic):
		reason = errNotPublic.Error()
	case errors.As(err, &dns):
		reason = "its host name could not be resolved"
	case errors.As(err, &cert):
		reason = "its TLS certificate was not accepted"
	case errors.As(err, &ne) && ne.Timeout():
		reason = fmt.Sprintf("it did not answer within %v", m.client.Timeout)
	case errors.As(err, &ne):
		reason = "it could not be reached"
	default:
		return err
	}
	if m.log != nil {
		m.log.Info("oauth: a client document could not be fetched", "client_id", id, "reason", reason, "detail", err.Error())
	}
	return errors.New(reason)
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
