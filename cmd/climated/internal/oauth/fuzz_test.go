package oauth_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"golang.org/x/time/rate"

	"github.com/climated/climated/cmd/climated/internal/oauth"
)

// fuzzEndpoint posts body to path of a hub and fails on an answer that is
// a crash, a 500 or not an RFC 6749 / 7591 JSON answer.
func fuzzEndpoint(f *testing.F, path, ctype string, seeds ...string) {
	for _, s := range seeds {
		f.Add(s)
	}
	h := newHub(f, func(o *oauth.Options) { o.RegisterRate = rate.Inf; o.MaxClients = 1 << 20 })
	handler := h.srv.Handler()
	f.Fuzz(func(t *testing.T, body string) {
		req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
		req.Header.Set("Content-Type", ctype)
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, req)
		var m map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil || rec.Code >= 500 {
			t.Fatalf("%q: %d %s", body, rec.Code, rec.Body)
		}
		if rec.Code >= 400 && (m["error"] == nil || m["error_description"] == nil) {
			t.Fatalf("%q: %d without error and description: %s", body, rec.Code, rec.Body)
		}
	})
}

func FuzzToken(f *testing.F) {
	fuzzEndpoint(f, oauth.PathToken, "application/x-www-form-urlencoded",
		"grant_type=authorization_code&client_id=a&code=b&code_verifier=c&redirect_uri=https%3A%2F%2Fa.example%2Fcb",
		"grant_type=refresh_token&client_id=a&refresh_token=x.y", "client_id=%zz", "")
}

func FuzzRegister(f *testing.F) {
	fuzzEndpoint(f, oauth.PathRegister, "application/json",
		`{"client_name":"x","redirect_uris":["https://a.example/cb"]}`, `{"redirect_uris":[1]}`, `[]`, `null`, "")
}
