package main

import (
	"bytes"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestConnectNamesTheConsentButton: the steps climated connect prints for
// the assistants that sign in with OAuth name the consent page's approve
// button and its box for alerts by the words the page shows.
func TestConnectNamesTheConsentButton(t *testing.T) {
	base, _ := oauthHub(t, nil)
	const redirect = "http://127.0.0.1:9/callback"
	s, reg := call(t, "POST", base+"/register", map[string]string{"Content-Type": "application/json"},
		`{"client_name":"Words","redirect_uris":["`+redirect+`"]}`)
	id := regexp.MustCompile(`"client_id":"([^"]+)"`).FindStringSubmatch(reg)
	if s != http.StatusCreated || id == nil {
		t.Fatalf("register: %d %s", s, reg)
	}
	q := url.Values{"client_id": {id[1]}, "redirect_uri": {redirect}, "response_type": {"code"}, "state": {"st"},
		"code_challenge": {"tqJkRfnFYfROIxzCmyvxuZotQxNblQS9WGKHbA5wLrA"}, "code_challenge_method": {"S256"}}
	s, page := call(t, "GET", base+"/authorize?"+q.Encode(), nil, "")
	button := regexp.MustCompile(`<button[^>]*value="approve"[^>]*>([^<]+)</button>`).FindStringSubmatch(page)
	if s != 200 || button == nil {
		t.Fatalf("the consent page: %d, no approve button in %.300s", s, page)
	}
	box := regexp.MustCompile(`name="grant" value="alerts:write"[^>]*> <code>alerts:write</code> ([A-Za-z ]+)`).FindStringSubmatch(page)
	if box == nil {
		t.Fatalf("the consent page has no box for alerts: %.2000s", page)
	}
	file := filepath.Join(t.TempDir(), "climated.yaml")
	if err := os.WriteFile(file, []byte("public_url: https://hub.example.ts.net\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, assistant := range []string{"claude-ai", "chatgpt", "home-assistant"} {
		var out bytes.Buffer
		cmd := climated("connect", assistant, "--config", file)
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			t.Fatalf("connect %s: %v\n%s", assistant, err, out.String())
		}
		if want := "press " + button[1] + "."; !strings.Contains(out.String(), want) {
			t.Errorf("connect %s does not say %q, the consent page's button:\n%s", assistant, want, out.String())
		}
		if want := `tick "` + strings.TrimSpace(box[1]) + `"`; !strings.Contains(out.String(), want) {
			t.Errorf("connect %s does not say %q, the consent page's box for alerts:\n%s", assistant, want, out.String())
		}
	}
}
