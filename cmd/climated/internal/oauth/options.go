package oauth

import (
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"golang.org/x/time/rate"

	"github.com/climated/climated/mcp"
)

// Tunables; Options fields left zero take these.
const (
	DefaultCodeTTL       = 60 * time.Second
	DefaultAccessTTL     = time.Hour
	DefaultRefreshTTL    = 30 * 24 * time.Hour
	MaxRefreshTTL        = 90 * 24 * time.Hour
	DefaultMaxClients    = 50 // registered clients at once
	DefaultMaxCodes      = 64 // codes issued and not yet redeemed
	DefaultMaxGrants     = 10 // grants (token families) per client
	DefaultRegisterRate  = rate.Limit(1.0 / 6)
	DefaultRegisterBurst = 10
	maxBody              = 16 << 10 // bytes of a /token or /register request
)

// DefaultReuseInterval is how long after a refresh token's first use it
// may be presented again, while none of the pairs it gave has been used:
// the retry gets a pair of its own instead of ending the grant. The retry
// of a lost answer (a dropped connection, a tunnel that timed out) and
// the loser of a client's race with itself come seconds after the first
// use. 60 s is the most Amazon Cognito allows (RetryGracePeriodSeconds),
// twice Okta's default leeway and the example of Ory Hydra's guide;
// using a successor closes it early, and MaxPairs bounds what it gives.
const DefaultReuseInterval = 60 * time.Second

// MaxReuseInterval bounds Options.ReuseInterval, as Ory Hydra bounds its
// grace period: each second of it is a second in which a copy of a
// rotated-out token still gets tokens.
const MaxReuseInterval = 5 * time.Minute

// DefaultMaxPairs is how many token pairs a grant holds at most: the one
// last refreshed from and its successors (the first answer and three
// retries). A refresh token retried more often is refused without
// ending the grant; the pairs it gave keep working.
const DefaultMaxPairs = 5

// DefaultUnapproved is how long a registration the owner never approved
// (no grant made, no code waiting) is kept. Clients register a moment
// before they open the consent page (Claude, ChatGPT, Home Assistant,
// go-sdk and the TypeScript SDK all do), so the wait is the owner's
// reading the page and typing the hub's token: ten minutes is ample (and
// as long as a fetched Client ID Metadata Document is used), while a
// squatter's registrations are gone in minutes, not a day. A client
// whose registration expired registers again.
const DefaultUnapproved = 10 * time.Minute

// Scopes the hub grants: the MCP server's, which checks them.
const (
	ScopeRead        = mcp.ScopeRead
	ScopeAlertsWrite = mcp.ScopeAlertsWrite
)

// Options configure a Server. Issuer and Resource are required.
type Options struct {
	// Issuer is the https URL (or http on loopback) the world sees the hub
	// at, without a trailing slash: the endpoints hang beneath it.
	Issuer string
	// Resource is the MCP endpoint's URL (/mcp): the audience of a token
	// whose sign-in names none.
	Resource string
	// Resources are the other endpoints of the same MCP server (the SSE
	// transport's /sse): each has its own resource metadata, as clients
	// accept only a resource that is the URL they were given, and a token
	// bound to any of them opens all, as they serve the same tools.
	Resources []string

	CodeTTL, AccessTTL, RefreshTTL  time.Duration
	MaxClients, MaxCodes, MaxGrants int
	Unapproved                      time.Duration // DefaultUnapproved
	ReuseInterval                   time.Duration // DefaultReuseInterval, at most MaxReuseInterval
	MaxPairs                        int           // DefaultMaxPairs
	RegisterRate                    rate.Limit
	RegisterBurst                   int

	// Owner tells the hub's owner on the consent page: nil when given is
	// the owner's secret (the hub's token), else an error the page shows.
	// It is also where wrong tries are limited; the wiring hands the
	// dashboard's login check, so both share one set of limits.
	Owner func(r *http.Request, given string) error

	// Stylesheet is the path, on the issuer's origin, of the stylesheet
	// the consent page links (the dashboard's, dash.StylesheetPath), so
	// that the page looks like the dashboard; "" leaves it plain.
	Stylesheet string

	// CIMDTimeout bounds a Client ID Metadata Document's fetch
	// (DefaultCIMDTimeout). CIMDAllowAddr decides which addresses it may
	// reach (nil: public ones only) and CIMDRootCAs which CAs it trusts
	// (nil: the system's); tests set them to serve documents on loopback.
	CIMDTimeout   time.Duration
	CIMDAllowAddr func(netip.Addr) bool
	CIMDRootCAs   *x509.CertPool

	Logger *slog.Logger     // nil logs nothing
	Now    func() time.Time // nil means time.Now
}

// ErrRefreshTooLong says RefreshTTL is over its bound, 90 days.
var ErrRefreshTooLong = errors.New("refresh tokens may live at most 90 days")

func (o *Options) fill() error {
	if err := checkBase("issuer", o.Issuer); err != nil {
		return err
	}
	for _, r := range append([]string{o.Resource}, o.Resources...) {
		if err := checkBase("resource", r); err != nil {
			return err
		}
	}
	setDur(&o.CodeTTL, DefaultCodeTTL)
	setDur(&o.AccessTTL, DefaultAccessTTL)
	setDur(&o.RefreshTTL, DefaultRefreshTTL)
	setDur(&o.Unapproved, DefaultUnapproved)
	setDur(&o.CIMDTimeout, DefaultCIMDTimeout)
	setDur(&o.ReuseInterval, DefaultReuseInterval)
	if o.RefreshTTL > MaxRefreshTTL {
		return ErrRefreshTooLong
	}
	if o.ReuseInterval > MaxReuseInterval {
		return fmt.Errorf("a rotated-out refresh token may be retried for at most %v (got %v)", MaxReuseInterval, o.ReuseInterval)
	}
	if o.AccessTTL > time.Hour || o.CodeTTL > time.Minute {
		return fmt.Errorf("access tokens may live at most 1 h and codes 60 s (got %v, %v)", o.AccessTTL, o.CodeTTL)
	}
	setInt(&o.MaxClients, DefaultMaxClients)
	setInt(&o.MaxCodes, DefaultMaxCodes)
	setInt(&o.MaxGrants, DefaultMaxGrants)
	setInt(&o.MaxPairs, DefaultMaxPairs)
	setInt(&o.RegisterBurst, DefaultRegisterBurst)
	if o.RegisterRate <= 0 {
		o.RegisterRate = DefaultRegisterRate
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return nil
}

// checkBase accepts an absolute https URL, or http on a loopback host,
// with no query or fragment.
func checkBase(field, s string) error {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || strings.HasSuffix(s, "/") {
		return fmt.Errorf("oauth %s %q: want an absolute URL without query, fragment or trailing slash", field, s)
	}
	if u.Scheme != "https" && !(u.Scheme == "http" && isLoopback(u.Hostname())) {
		return fmt.Errorf("oauth %s %q: want https (http only on loopback)", field, s)
	}
	return nil
}

func setDur(d *time.Duration, def time.Duration) {
	if *d <= 0 {
		*d = def
	}
}

func setInt(n *int, def int) {
	if *n <= 0 {
		*n = def
	}
}
