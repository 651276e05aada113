package oauth_test

import (
	"context"
	"crypto/x509"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/cmd/climated/internal/oauth"
)

// docServer serves Client ID Metadata Documents over TLS on loopback:
// /client.json a good one naming redirect, and the faulty ones.
type docServer struct {
	*httptest.Server
	fetches atomic.Int32
}

func newDocServer(t *testing.T, redirect string) *docServer {
	d := &docServer{}
	mux := http.NewServeMux()
	doc := func(id, extra string) string {
		return `{"client_id":"` + id + `","client_name":"Doc client","redirect_uris":["` + redirect + `"]` + extra + `}`
	}
	mux.HandleFunc("/client.json", func(w http.ResponseWriter, r *http.Request) {
		d.fetches.Add(1)
		w.Write([]byte(doc(d.URL+r.URL.Path, "")))
	})
	mux.HandleFunc("/big.json", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(doc(d.URL+r.URL.Path, `,"logo_uri":"https://x.example/`+strings.Repeat("x", 5<<10)+`"`)))
	})
	// ChatGPT's documents prefer private_key_jwt and list none besides
	// (django-oauth/django-oauth-toolkit#1857); one that lists nothing
	// else (Altinity/altinity-mcp#118) cannot be a public client.
	mux.HandleFunc("/chatgpt.json", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(doc(d.URL+r.URL.Path, `,"token_endpoint_auth_method":"private_key_jwt","token_endpoint_auth_methods_supported":["none","private_key_jwt"]`)))
	})
	mux.HandleFunc("/jwt-only.json", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(doc(d.URL+r.URL.Path, `,"token_endpoint_auth_method":"private_key_jwt"`)))
	})
	mux.HandleFunc("/other-id.json", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(doc("https://someone.else/client.json", "")))
	})
	mux.HandleFunc("/moved.json", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, d.URL+"/client.json", http.StatusFound)
	})
	// Slow whatever the request's context says (a loaded CI machine once
	// saw it end early, and the fetch got an empty body instead of its
	// timeout): it answers only once the test is over.
	over := make(chan struct{})
	mux.HandleFunc("/slow.json", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-over:
		case <-time.After(time.Minute):
		}
	})
	d.Server = httptest.NewTLSServer(mux)
	t.Cleanup(d.Close)
	t.Cleanup(func() { close(over) }) // before Close, which waits for handlers
	return d
}

// cimdHub trusts the document server's CA and, when loopback is true,
// lets the fetcher reach loopback, where the document server is.
func cimdHub(t *testing.T, d *docServer, loopback bool) *hub {
	pool := x509.NewCertPool()
	pool.AddCert(d.Certificate())
	return newHub(t, func(o *oauth.Options) {
		o.CIMDRootCAs, o.Owner, o.CIMDTimeout = pool, checkOwner, 300*time.Millisecond
		if loopback {
			o.CIMDAllowAddr = func(a netip.Addr) bool { return a.IsLoopback() }
		}
	})
}

// TestCIMDClient: an https client_id is fetched, its redirect URIs are
// the only ones accepted, the document is cached, and the approved
// client is listed.
func TestCIMDClient(t *testing.T) {
	const redirect = "https://app.example/cb"
	d := newDocServer(t, redirect)
	h := cimdHub(t, d, true)
	id := d.URL + "/client.json"
	if _, err := h.srv.CheckAuthRequest(context.Background(), "", h.authQuery(id, "https://app.example/other")); err == nil {
		t.Error("a redirect URI the document does not list was accepted")
	}
	if _, err := h.srv.CheckAuthRequest(context.Background(), "", h.authQuery(d.URL+"/chatgpt.json", redirect)); err != nil {
		t.Errorf("a document that prefers private_key_jwt and lists none: %v", err)
	}
	resp := newBrowser(t).approve(h, h.authQuery(id, redirect), ownerToken)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("approval: %d", resp.StatusCode)
	}
	if n := d.fetches.Load(); n != 1 { // /client.json's
		t.Errorf("the document was fetched %d times, want once (cached)", n)
	}
	list, err := h.srv.Clients(context.Background())
	if err != nil || len(list) != 1 || list[0].ID != id || list[0].Name != "Doc client" {
		t.Errorf("clients: %+v %v", list, err)
	}
}

// TestCIMDRefused: documents the hub must not fetch or use.
func TestCIMDRefused(t *testing.T) {
	const redirect = "https://app.example/cb"
	d := newDocServer(t, redirect)
	public, loopback := cimdHub(t, d, false), cimdHub(t, d, true)
	for _, c := range []struct {
		name string
		h    *hub
		id   string
		want string
	}{
		{"on 127.0.0.1", public, d.URL + "/client.json", "not a public address"},
		{"on 10.0.0.0/8", public, "https://10.1.2.3/client.json", "not a public address"},
		{"on 192.168.0.0/16", public, "https://192.168.1.1/client.json", "not a public address"},
		{"on 100.64.0.0/10 (Tailscale)", public, "https://100.101.102.103/client.json", "not a public address"},
		{"on link-local", public, "https://169.254.169.254/latest/meta-data", "not a public address"},
		{"on ::1", public, "https://[::1]:9/client.json", "not a public address"},
		{"a redirect", loopback, d.URL + "/moved.json", "redirects"},
		{"over 5 KB", loopback, d.URL + "/big.json", "larger than"},
		{"slow", loopback, d.URL + "/slow.json", "did not answer within"},
		{"another client_id", loopback, d.URL + "/other-id.json", "is not its URL"},
		{"private_key_jwt only", loopback, d.URL + "/jwt-only.json", "public clients only"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.h.srv.CheckAuthRequest(context.Background(), "", c.h.authQuery(c.id, redirect))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want an error with %q", err, c.want)
			}
		})
	}
}

// TestGoSDKClientCIMD: go-sdk's client signs in with a Client ID
// Metadata Document instead of registering.
func TestGoSDKClientCIMD(t *testing.T) {
	const redirect = "http://127.0.0.1:5557/callback"
	d := newDocServer(t, redirect)
	h := cimdHub(t, d, true)
	withMCP(h)
	var secrets []string
	handler, err := auth.NewAuthorizationCodeHandler(&auth.AuthorizationCodeHandlerConfig{
		ClientIDMetadataDocumentConfig: &auth.ClientIDMetadataDocumentConfig{URL: d.URL + "/client.json"},
		RedirectURL:                    redirect,
		AuthorizationCodeFetcher:       fetchCode(t, &secrets),
	})
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: h.base + "/mcp", OAuthHandler: handler}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, h.logText())
	}
	defer cs.Close()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "whoami"})
	if err != nil || res.Content[0].(*mcp.TextContent).Text != d.URL+"/client.json" {
		t.Fatalf("whoami: %v %+v", err, res)
	}
	if strings.Contains(h.logText(), "oauth client registered") {
		t.Error("the client registered by DCR instead of using its document")
	}
}

// TestCIMDBudget: one who floods the hub with bogus client_ids spends
// their own fetch budget, not the household's assistant's; a failed URL
// asked again within a minute costs no fetch, and the consent page's
// reason names no address or Go error.
func TestCIMDBudget(t *testing.T) {
	const redirect = "https://app.example/cb"
	d := newDocServer(t, redirect)
	now := time.Now()
	pool := x509.NewCertPool()
	pool.AddCert(d.Certificate())
	h := newHub(t, func(o *oauth.Options) {
		o.CIMDRootCAs, o.Owner, o.CIMDTimeout = pool, checkOwner, 300*time.Millisecond
		o.CIMDAllowAddr = func(a netip.Addr) bool { return a.IsLoopback() }
		o.Now = func() time.Time { return now }
	})
	good := d.URL + "/client.json"
	ask := func(source, id string) error {
		_, err := h.srv.CheckAuthRequest(context.Background(), source, h.authQuery(id, redirect))
		return err
	}
	for i := range 30 { // a flood of bogus client_ids, each a fetch that fails
		ask("flooder", fmt.Sprintf("%s/bogus-%d.json", d.URL, i))
	}
	if err := ask("flooder", d.URL+"/never-seen.json"); err == nil || !strings.Contains(err.Error(), "too many client documents") {
		t.Errorf("a new URL after the flood: %v, want the budget spent", err)
	}
	before := d.fetches.Load()
	if err := ask("household", good); err != nil || d.fetches.Load() != before+1 {
		t.Errorf("the household's assistant during the flood: %v (fetches %d → %d), want its document fetched", err, before, d.fetches.Load())
	}
	public := cimdHub(t, d, false)
	err1 := ask2(public, d.URL+"/client.json", redirect)
	err2 := ask2(public, d.URL+"/client.json", redirect)
	if err1 == nil || err2 == nil || err1.Error() != err2.Error() {
		t.Errorf("a refused URL asked twice: %v, %v; want the same refusal", err1, err2)
	}
	for _, raw := range []string{"dial tcp", "x509", "lookup ", "tls:", "connect:"} {
		if err1 != nil && strings.Contains(err1.Error(), raw) {
			t.Errorf("the refusal shows %q: %v", raw, err1)
		}
	}
}

func ask2(h *hub, id, redirect string) error {
	_, err := h.srv.CheckAuthRequest(context.Background(), "", h.authQuery(id, redirect))
	return err
}
