package oauth

import (
	"fmt"
	"html"
	"net/http"
	"net/url"
	"strings"
)

// scopeWords say, in a sentence, what each scope lets an assistant do.
var scopeWords = map[string]string{
	ScopeRead:        "Read the climate: every zone's readings, their history and the alerts.",
	ScopeAlertsWrite: "Create and delete alerts.",
}

// carried are the authorization request's parameters the form sends back.
var carried = []string{"client_id", "redirect_uri", "response_type", "state", "code_challenge", "code_challenge_method", "resource", "scope"}

// pageHead opens both pages: the title, then the stylesheet's link (or
// nothing), escaped by the caller. The classes are the dashboard's
// (dash/web/app.css: .login, .card, .consent). (No html/template, as the
// dashboard: its reflection would keep every method of the binary.)
const pageHead = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark"><link rel="icon" href="data:,"><title>climated — %s</title>%s</head>
<body><header class="top"><span class="brand">climated</span></header>
`

// consentBody is the consent page's body; every %s is escaped by
// consentPage. The field and button names are what the form posts
// (takeConsent) and what browser tests select.
const consentBody = `<main class="login consent"><div class="card">
<h1>Allow <span class="client">%s</span> to use this hub?</h1>
<p class="id">Client id <code>%s</code></p>
<p>After you answer, it sends you back to <strong class="host">%s</strong>.</p>
<h2>If you allow it, it may</h2>
<ul class="scopes">%s</ul>
<form id="consent" method="post" action="%s">%s
<label for="owner">The hub's token (<code>climated token</code> prints it)</label>
<input id="owner" name="owner" type="password" autocomplete="current-password" autofocus>
%s<div class="actions"><button type="submit" name="action" value="approve" class="primary">Allow</button>
<button type="submit" name="action" value="deny">Deny</button></div>
</form></div></main></body></html>
`

const errorBody = `<main class="login consent"><div class="card">
<h1>Sign-in stopped</h1><p class="error" role="alert">%s</p>
</div></main></body></html>
`

func (s *Server) consentPage(w http.ResponseWriter, status int, ar *AuthRequest, q url.Values, csrf, msg string) {
	name := html.EscapeString(ar.Client.Name)
	u, _ := url.Parse(ar.RedirectURI)
	var hidden strings.Builder
	scopes := scopeItems(ar, "consent")
	for _, k := range carried {
		fmt.Fprintf(&hidden, "\n<input type=\"hidden\" name=\"%s\" value=\"%s\">", k, html.EscapeString(q.Get(k)))
	}
	fmt.Fprintf(&hidden, "\n<input type=\"hidden\" name=\"csrf\" value=\"%s\">", csrf)
	if msg != "" {
		msg = `<p class="error" role="alert">` + html.EscapeString(msg) + "</p>\n"
	}
	pageHeaders(w, u.Scheme+"://"+u.Host) // an ASCII host, as CSP's form-action matches it
	w.WriteHeader(status)
	s.writeHead(w, "allow "+ar.Client.Name+"?")
	fmt.Fprintf(w, consentBody, name, html.EscapeString(ar.Client.ID), html.EscapeString(u.Host), scopes,
		html.EscapeString(s.opts.Issuer+PathAuthorize), hidden.String(), msg)
}

func (s *Server) errorPage(w http.ResponseWriter, status int, msg string) {
	pageHeaders(w, "")
	w.WriteHeader(status)
	s.writeHead(w, "sign-in")
	fmt.Fprintf(w, errorBody, html.EscapeString(msg))
}

// writeHead writes pageHead with title and the stylesheet's link.
func (s *Server) writeHead(w http.ResponseWriter, title string) {
	link := ""
	if s.opts.Stylesheet != "" {
		link = `<link rel="stylesheet" href="` + html.EscapeString(s.opts.Stylesheet) + `">`
	}
	fmt.Fprintf(w, pageHead, html.EscapeString(title), link)
}

// pageHeaders: never framed (clickjacking), never cached, no referrer
// (the query holds the state); styles only from the hub itself (the
// dashboard's stylesheet), nothing else loaded; the form may post here
// and be redirected to the client.
func pageHeaders(w http.ResponseWriter, redirectOrigin string) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", strings.TrimSpace("default-src 'none'; style-src 'self'; img-src data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self' "+redirectOrigin))
}
