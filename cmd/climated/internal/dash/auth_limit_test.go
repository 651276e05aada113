package dash_test

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/climated/climated/cmd/climated/internal/dash"
)

// clientFrom is a client whose connections come from ip (all of 127/8 is
// loopback on Linux), so that one test plays several machines.
func clientFrom(ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	return &http.Client{
		Transport:     &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: 100},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Timeout:       10 * time.Second,
	}
}

// login posts token to base's login from c and returns the answer.
func login(t *testing.T, c *http.Client, base, token string) (*http.Response, string) {
	t.Helper()
	return post(t, c, base, strings.NewReader(url.Values{"token": {token}}.Encode()))
}

// status is res's status code, 0 when the request failed.
func status(res *http.Response) int {
	if res == nil {
		return 0
	}
	return res.StatusCode
}

// post posts the form body to base's login from c.
func post(t *testing.T, c *http.Client, base string, body io.Reader) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest("POST", base+"/dash/login", body)
	if err != nil {
		t.Error(err)
		return nil, ""
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", base)
	res, err := c.Do(req)
	if err != nil {
		t.Error(err)
		return nil, ""
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

// TestConcurrentWrongLoginsOneAddress: 100 wrong logins at once from one
// address: MaxWrongLogins are answered 401, the rest 429 (each is
// counted under one lock, so concurrent tries cannot pass the limit);
// the right token gets in all the same, from that address and another.
func TestConcurrentWrongLoginsOneAddress(t *testing.T) {
	store, _ := demoStore(t, time.Hour)
	now := time.Unix(1_800_000_000, 0)
	h := newDash(t, dash.StoreSource{Store: store}, &dash.Options{Token: testToken, IsLoopback: remote, Now: func() time.Time { return now }})
	base := serve(t, "127.0.0.1", h)
	guesser := clientFrom("127.0.0.2")
	var mu sync.Mutex
	codes := map[int]int{}
	var wg sync.WaitGroup
	refused, release := make(chan struct{}, 100), make(chan struct{})
	go func() {
		defer close(release)
		deadline := time.After(2 * time.Second)
		for i := range 100 - dash.MaxWrongLogins {
			select {
			case <-refused:
			case <-deadline:
				t.Logf("the bodies sent after 2 s, with %d refusals", i)
				return
			}
		}
	}()
	for range 100 {
		wg.Go(func() {
			body, w := io.Pipe()
			go func() {
				<-release
				w.Write([]byte("token=guess"))
				w.Close()
			}()
			res, _ := post(t, guesser, base, body)
			if res == nil {
				return
			}
			if res.StatusCode == http.StatusTooManyRequests {
				refused <- struct{}{}
				if res.Header.Get("Retry-After") == "" {
					t.Error("429 without Retry-After")
				}
			}
			mu.Lock()
			codes[res.StatusCode]++
			mu.Unlock()
		})
	}
	wg.Wait()
	if codes[http.StatusUnauthorized] != dash.MaxWrongLogins || codes[http.StatusTooManyRequests] != 100-dash.MaxWrongLogins {
		t.Errorf("100 concurrent wrong logins from one address: %v; want %d checked (401), the rest 429", codes, dash.MaxWrongLogins)
	}
	if res, body := login(t, guesser, base, testToken); status(res) != http.StatusSeeOther {
		t.Errorf("right token from the guessing address: %d %q, want 303: the right token always gets in", status(res), body)
	}
	res, body := login(t, clientFrom("127.0.0.3"), base, testToken)
	if status(res) != http.StatusSeeOther || len(res.Cookies()) != 1 {
		t.Errorf("right token from another address: %d %q, want 303 and a session", status(res), body)
	}
}

// TestLoginCeiling: wrong logins spread over addresses stop at
// MaxLoginsTotal a minute, for every address, until the minute is over;
// the right token still gets in.
func TestLoginCeiling(t *testing.T) {
	store, _ := demoStore(t, time.Hour)
	now := time.Unix(1_800_000_000, 0)
	h := newDash(t, dash.StoreSource{Store: store}, &dash.Options{Token: testToken, IsLoopback: remote, Now: func() time.Time { return now }})
	base := serve(t, "127.0.0.1", h)
	ip := 10
	for tried := 0; tried < dash.MaxLoginsTotal; ip++ {
		c := clientFrom(fmt.Sprintf("127.0.0.%d", ip))
		for range dash.MaxWrongLogins {
			if res, body := login(t, c, base, "guess"); status(res) != http.StatusUnauthorized {
				t.Fatalf("wrong login %d from 127.0.0.%d: %d %q, want 401", tried+1, ip, status(res), body)
			}
			tried++
		}
	}
	owner := clientFrom(fmt.Sprintf("127.0.0.%d", ip))
	if res, body := login(t, owner, base, "guess"); status(res) != http.StatusTooManyRequests || !strings.Contains(body, "all addresses") {
		t.Fatalf("a wrong token past the ceiling: %d %q, want 429 naming all addresses", status(res), body)
	}
	if res, body := login(t, owner, base, testToken); status(res) != http.StatusSeeOther {
		t.Errorf("the right token past the ceiling: %d %q, want 303", status(res), body)
	}
	now = now.Add(time.Minute)
	if res, body := login(t, owner, base, "guess"); status(res) != http.StatusUnauthorized {
		t.Errorf("a wrong token a minute later: %d %q, want 401", status(res), body)
	}
}

// TestOwnerBehindTunnelNeverLockedOut: behind a tunnel every request
// comes from loopback. A guesser trying a wrong token every 6 s for two
// minutes, and a flood of 100 at once, never keep the owner's right
// token out (1 of 24 approvals went through before); the guesser is
// limited by the address the tunnel forwards, not the owner's.
func TestOwnerBehindTunnelNeverLockedOut(t *testing.T) {
	store, _ := demoStore(t, time.Hour)
	now := time.Unix(1_800_000_000, 0)
	h := newDash(t, dash.StoreSource{Store: store}, &dash.Options{Token: testToken, IsLoopback: remote, Proxied: true, Now: func() time.Time { return now }})
	base := serve(t, "127.0.0.1", h)
	tunnel := clientFrom("127.0.0.1")
	from := func(addr, token string) int {
		req, _ := http.NewRequest("POST", base+"/dash/login", strings.NewReader(url.Values{"token": {token}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", base)
		req.Header.Set("X-Forwarded-For", "10.9.9.9, "+addr) // what the client claimed, then what the tunnel saw
		res, err := tunnel.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	for range 100 {
		from("203.0.113.9", "guess")
	}
	if s := from("203.0.113.9", "guess"); s != http.StatusTooManyRequests {
		t.Errorf("the guesser's wrong token past its limit: %d, want 429", s)
	}
	in := 0
	for i := range 24 { // two minutes, a wrong try every 6 s, the owner's approval between
		now = now.Add(6 * time.Second)
		from("203.0.113.9", "guess")
		if from("198.51.100.7", testToken) == http.StatusSeeOther {
			in++
		}
		if i%3 == 0 && from("203.0.113.9", testToken) != http.StatusSeeOther {
			t.Errorf("the right token from the guesser's own address refused")
		}
	}
	if in != 24 {
		t.Errorf("the owner's right token got in %d times of 24", in)
	}
	if s := from("198.51.100.7", "typo"); s != http.StatusUnauthorized {
		t.Errorf("the owner's own wrong try: %d, want 401 (the guesser's limit is not the owner's)", s)
	}
}
