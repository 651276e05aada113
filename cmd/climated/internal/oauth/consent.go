package oauth

import (
	"fmt"
	"html"
	"net/http"
	"net/url"
	"strings"
)

// scopeWords are what the consent page says each scope allows.
var scopeWords = map[string]string{
	ScopeRead:        "read the climate: every zone, its history and alerts",
	ScopeAlertsWrite: "create and delete alerts",
}

// carried are the authorization request's parameters the form sends back.
var carried = []string{"client_id", "redirect_uri", "response_type", "state", "code_challenge", "code_challenge_method", "resource", "scope"}

// consentPage is the page; the %s are escaped by consentPage's caller.
// (No html/template, as the dashboard: its reflection would keep every
// method of the binary.) A later session gives it the dashboard's style.
const consentPageHTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark"><link rel="icon" href="data:,"><title>climated — allow %s?</title></head>
<body><main><h1>Allow %s to use this hub?</h1>
<p>It will send you back to <strong>%s</strong>.</p>
<p>It may:</p><ul>%s</ul>
<form method="post" action="%s">%s
<label for="owner">The hub's token (<code>climated token</code> prints it)</label>
<input id="owner" name="owner" type="password" autocomplete="current-password" autofocus>
%s<button type="submit" name="action" value="approve">Allow</button>
<button type="submit" name="action" value="deny">Deny</button>
</form></main></body></html>
`

func (s *Server) consentPage(w http.ResponseWriter, status int, ar *AuthRequest, q url.Values, csrf, msg string) {
	name := html.EscapeString(ar.Client.Name)
	u, _ := url.Parse(ar.RedirectURI)
	var scopes, hidden strings.Builder
	for _, sc := range ar.Scopes {
		fmt.Fprintf(&scopes, "<li>%s</li>", html.EscapeString(scopeWords[sc]))
	}
	for _, k := range carried {
		fmt.Fprintf(&hidden, "\n<input type=\"hidden\" name=\"%s\" value=\"%s\">", k, html.EscapeString(q.Get(k)))
	}
	fmt.Fprintf(&hidden, "\n<input type=\"hidden\" name=\"csrf\" value=\"%s\">", csrf)
	if msg != "" {
		msg = `<p class="error" role="alert">` + html.EscapeString(msg) + "</p>\n"
	}
	pageHeaders(w, u.Scheme+"://"+u.Host)
	w.WriteHeader(status)
	fmt.Fprintf(w, consentPageHTML, name, name, html.EscapeString(u.Host), scopes.String(),
		html.EscapeString(s.opts.Issuer+PathAuthorize), hidden.String(), msg)
}

func (s *Server) errorPage(w http.ResponseWriter, status int, msg string) {
	pageHeaders(w, "")
	w.WriteHeader(status)
	fmt.Fprintf(w, "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>climated — sign-in</title></head>\n<body><main><h1>Sign-in stopped</h1><p role=\"alert\">%s</p></main></body></html>\n", html.EscapeString(msg))
}

// pageHeaders: never framed (clickjacking), never cached, no referrer
// (the query holds the state); the form may post here and be redirected
// to the client.
func pageHeaders(w http.ResponseWriter, redirectOrigin string) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", strings.TrimSpace("default-src 'none'; style-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self' "+redirectOrigin))
}
