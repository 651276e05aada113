package remotewrite

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
)

// Outcome is what became of one request.
type Outcome int

const (
	// Sent: the store took the samples (2xx).
	Sent Outcome = iota
	// Retry: the store or the way to it failed for now (a network error,
	// 5xx, 429); the same request goes again after a back-off.
	Retry
	// Refused: the store will not take anything from the hub as it is set
	// up (401, 403, 404, 405): the cursor stays until the configuration or
	// the store is mended, and the request is tried again now and then.
	Refused
	// Dropped: the store refused these samples for good (another 4xx,
	// such as Prometheus' 400 for samples older than it takes); the
	// protocol says not to send them again, so the cursor moves past them.
	Dropped
	// Fallback: a 2.0 request reached a store that takes 1.0 only: its
	// 2xx says nothing of the samples written (a 1.0 receiver reads a 2.0
	// body as an empty 1.0 request), or fewer than were sent, or it
	// answered 415. The same samples go again in 1.0.
	Fallback
)

// client sends requests to one store.
type client struct {
	cfg  Config
	http *http.Client
	// v2Only: the store takes remote write 2.0 only (it answered 415 to
	// a 1.0 request): a 2xx to 2.0 is taken as written whether or not it
	// says how many, and a 415 is not a sign of a 1.0 receiver. The
	// sender's, set by it.
	v2Only bool
}

func newClient(cfg Config) (*client, error) {
	tc, err := cfg.TLS.config()
	if err != nil {
		return nil, err
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = tc
	return &client{cfg: cfg, http: &http.Client{Transport: tr, Timeout: cfg.Timeout, CheckRedirect: noRedirect}}, nil
}

// noRedirect has the client hand back a redirect instead of following
// it. Followed, a 301 or 302 becomes a GET without the samples (whose
// 200, a sign-in page, would count them as sent), and a 307 to another
// port or from https to http carries the store's credentials there (Go
// drops them only for another host name: curl's CVE-2022-27776). send
// refuses it, naming where the store points, for the owner to set as the
// url.
func noRedirect(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// config is the TLS configuration t describes.
func (t TLSConfig) config() (*tls.Config, error) {
	tc := &tls.Config{ServerName: t.ServerName, InsecureSkipVerify: t.InsecureSkipVerify, MinVersion: tls.VersionTLS12}
	if t.CAFile != "" {
		pem, err := os.ReadFile(t.CAFile)
		if err != nil {
			return nil, err
		}
		tc.RootCAs = x509.NewCertPool()
		if !tc.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("ca_file %s holds no PEM certificate", t.CAFile)
		}
	}
	if t.CertFile != "" {
		cert, err := tls.LoadX509KeyPair(t.CertFile, t.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("cert_file and key_file: %w", err)
		}
		tc.Certificates = []tls.Certificate{cert}
	}
	return tc, nil
}

// result is a request's outcome, with what the store said and, for a
// 429 or 503, how long it asked to be left alone.
type result struct {
	outcome    Outcome
	err        error
	retryAfter time.Duration
}

// send posts one compressed request of protocol proto holding samples
// samples. The secrets are read from their files for every request, so
// that a new password or token is used without a restart.
func (c *client) send(ctx context.Context, body []byte, proto string, samples int) result {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.cfg.URL, bytes.NewReader(body))
	if err != nil {
		return result{outcome: Refused, err: err}
	}
	req.Header.Set("Content-Encoding", "snappy")
	req.Header.Set("Content-Type", "application/x-protobuf")
	req.Header.Set("User-Agent", "climated")
	req.Header.Set("X-Prometheus-Remote-Write-Version", "0.1.0")
	if proto == Protocol2 {
		req.Header.Set("Content-Type", contentTypeV2)
		req.Header.Set("X-Prometheus-Remote-Write-Version", versionV2)
	}
	if err := c.authorize(req); err != nil {
		return result{outcome: Refused, err: err}
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return result{outcome: Retry, err: fmt.Errorf("no answer: %w", stripURL(err))}
	}
	defer resp.Body.Close()
	said, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	if proto == Protocol2 && !c.v2Only {
		if r, ok := answeredV1(resp, samples); ok {
			return r
		}
	}
	return outcomeOf(resp, strings.TrimSpace(string(said)))
}

// outcomeOf is what the store's answer to a request means.
func outcomeOf(resp *http.Response, said string) result {
	code := resp.StatusCode
	if code/100 == 2 {
		return result{outcome: Sent}
	}
	err := error(&StatusError{Code: code, Said: said})
	if code/100 == 3 {
		return result{outcome: Refused, err: fmt.Errorf("%w: the store sends writes to %q; set remote_write's url to where it should go", err, resp.Header.Get("Location"))}
	}
	switch {
	case code == http.StatusTooManyRequests || code/100 == 5:
		return result{outcome: Retry, err: err, retryAfter: retryAfter(resp.Header.Get("Retry-After"))}
	case code == http.StatusUnauthorized || code == http.StatusForbidden || code == http.StatusNotFound || code == http.StatusMethodNotAllowed:
		return result{outcome: Refused, err: err}
	}
	return result{outcome: Dropped, err: err}
}

// answeredV1 tells, of the answer to a 2.0 request of samples samples,
// whether it came from a store that takes 1.0 only (Fallback): a 415, or
// a 2xx that does not say it wrote every sample.
func answeredV1(resp *http.Response, samples int) (result, bool) {
	fix := "the store takes remote write 1.0 only (set protocol: 1.0 for it)"
	if resp.StatusCode == http.StatusUnsupportedMediaType {
		return result{outcome: Fallback, err: fmt.Errorf("%s: it answered 415 Unsupported Media Type to a 2.0 request: %w", fix, &StatusError{Code: resp.StatusCode})}, true
	}
	if resp.StatusCode/100 != 2 {
		return result{}, false
	}
	h := resp.Header.Get(samplesWritten)
	if h == "" {
		return result{outcome: Fallback, err: fmt.Errorf("%s: it answered %d to a 2.0 request of %d samples without saying how many it wrote (%s), as a 1.0 receiver does that read it as an empty request", fix, resp.StatusCode, samples, samplesWritten)}, true
	}
	if n, err := strconv.Atoi(strings.TrimSpace(h)); err != nil || n < samples {
		return result{outcome: Fallback, err: fmt.Errorf("%s: it answered %d to a 2.0 request of %d samples, saying it wrote %q", fix, resp.StatusCode, samples, h)}, true
	}
	return result{}, false
}

// authorize adds the credentials of the configuration to req.
func (c *client) authorize(req *http.Request) error {
	if a := c.cfg.BasicAuth; a != nil {
		pw, err := readSecret(a.PasswordFile)
		if err != nil {
			return fmt.Errorf("remote_write.basic_auth.password_file: %w", err)
		}
		req.SetBasicAuth(a.Username, pw)
	}
	if c.cfg.BearerTokenFile != "" {
		tok, err := readSecret(c.cfg.BearerTokenFile)
		if err != nil {
			return fmt.Errorf("remote_write.bearer_token_file: %w", err)
		}
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	return nil
}

// StatusError is a store's answer other than 2xx, with the start of what
// it said.
type StatusError struct {
	Code int
	Said string
}

func (e *StatusError) Error() string {
	s := fmt.Sprintf("the store answered %d %s", e.Code, http.StatusText(e.Code))
	switch e.Code {
	case http.StatusUnauthorized, http.StatusForbidden:
		s += " (check remote_write's basic_auth or bearer_token_file)"
	case http.StatusNotFound, http.StatusMethodNotAllowed:
		s += " (check remote_write.url: VictoriaMetrics takes /api/v1/write, Prometheus /api/v1/write with --web.enable-remote-write-receiver)"
	}
	if e.Said != "" {
		s += ": " + e.Said
	}
	return s
}

// retryAfter reads a Retry-After in seconds; 0 when it is absent or a
// date.
func retryAfter(h string) time.Duration {
	n, err := strconv.Atoi(strings.TrimSpace(h))
	if err != nil || n < 0 {
		return 0
	}
	return time.Duration(n) * time.Second
}

// stripURL is err without the URL the HTTP client puts in it: the log
// names the store once, and /healthz, which anyone may read, not at all.
func stripURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}
