package clientscmd_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/climated/climated/cmd/climated/internal/cli"
	"github.com/climated/climated/cmd/climated/internal/clientscmd"
	"github.com/climated/climated/cmd/climated/internal/oauth"
	"github.com/climated/climated/history"
)

// TestListAndRevoke: an approved client is listed by name, revoked by id
// (once, logged), and gone from the list.
func TestListAndRevoke(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "climated.db")
	st, err := history.Open(ctx, db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close(ctx)
	run := func(args ...string) (string, string, error) {
		var out, errOut bytes.Buffer
		err := clientscmd.Run(ctx, append([]string{"--db", db}, args...), &out, &errOut)
		return out.String(), errOut.String(), err
	}
	if out, _, err := run(); err != nil || !strings.Contains(out, "No assistant") {
		t.Fatalf("empty list: %q %v", out, err)
	}
	id := approvedClient(t, db)
	out, _, err := run()
	if err != nil || !strings.Contains(out, "Kitchen assistant") || !strings.Contains(out, id) || !strings.Contains(out, "climate:read") {
		t.Fatalf("list: %q %v", out, err)
	}
	out, logged, err := run("revoke", id)
	if err != nil || !strings.Contains(out, "Revoked") || strings.Count(logged, "oauth client revoked") != 1 {
		t.Fatalf("revoke: %q %q %v", out, logged, err)
	}
	if out, _, _ := run(); strings.Contains(out, id) {
		t.Errorf("revoked client still listed: %q", out)
	}
	if _, _, err := run("revoke", id); !errors.Is(err, oauth.ErrNoClient) {
		t.Errorf("revoking twice: %v, want ErrNoClient", err)
	}
	if _, _, err := run("remove", id); !errors.Is(err, cli.ErrUsage) {
		t.Errorf("a wrong subcommand: %v, want ErrUsage", err)
	}
}

// approvedClient registers a client with the hub's authorization server
// and gives it a code, as the consent page does.
func approvedClient(t *testing.T, db string) string {
	ctx := context.Background()
	as, err := oauth.Open(ctx, db, oauth.Options{Issuer: "https://hub.example", Resource: "https://hub.example/mcp"})
	if err != nil {
		t.Fatal(err)
	}
	defer as.Close()
	return registerAndApprove(t, as)
}

func registerAndApprove(t *testing.T, as *oauth.Server) string {
	t.Helper()
	post := func(path, ctype, body string) map[string]any {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("POST", path, strings.NewReader(body))
		req.Header.Set("Content-Type", ctype)
		as.Handler().ServeHTTP(rec, req)
		var m map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil || rec.Code >= 300 {
			t.Fatalf("%s: %d %s", path, rec.Code, rec.Body)
		}
		return m
	}
	const redirect = "https://kitchen.example/cb"
	id := post(oauth.PathRegister, "application/json", `{"client_name":"Kitchen assistant","redirect_uris":["`+redirect+`"]}`)["client_id"].(string)
	const verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r0wW1gFWFOEjXk-abc"
	ar, err := as.CheckAuthRequest(context.Background(), "", url.Values{"client_id": {id}, "redirect_uri": {redirect}, "response_type": {"code"},
		"code_challenge": {"tqJkRfnFYfROIxzCmyvxuZotQxNblQS9WGKHbA5wLrA"}, "code_challenge_method": {"S256"}, "resource": {"https://hub.example/mcp"}})
	if err != nil {
		t.Fatal(err)
	}
	code, err := as.IssueCode(context.Background(), ar)
	if err != nil {
		t.Fatal(err)
	}
	post(oauth.PathToken, "application/x-www-form-urlencoded", url.Values{"grant_type": {"authorization_code"}, "client_id": {id},
		"redirect_uri": {redirect}, "code": {code}, "code_verifier": {verifier}}.Encode())
	return id
}
