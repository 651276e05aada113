package dash

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"html"
	"net/http"
	"strconv"
	"strings"
	"time"
)

const (
	cookieName = "climated_session"
	loginPath  = "/dash/login"
)

// Protect checks Host and Origin on every request, then lets through the
// static files, the login, loopback requests and those with the token (a
// session cookie or an Authorization: Bearer header); it answers the rest
// with the login form (at /) or 401. The dashboard applies it to itself;
// the HTTP front may apply it to other pages a browser opens.
func (h *Handler) Protect(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if msg := h.checks.Host(r); msg != "" {
			http.Error(w, msg, http.StatusForbidden)
			return
		}
		if msg := h.checkOrigin(r); msg != "" {
			http.Error(w, msg, http.StatusForbidden)
			return
		}
		switch {
		case r.URL.Path == loginPath:
			h.serveLogin(w, r)
		case strings.HasPrefix(r.URL.Path, "/dash/static/"), h.local(r), h.authorised(r):
			next.ServeHTTP(w, r)
		case h.opts.Token == "":
			http.Error(w, "this hub serves localhost only: set a token to open the dashboard from elsewhere", http.StatusForbidden)
		case r.URL.Path == "/":
			h.loginForm(w, http.StatusUnauthorized, "")
		default:
			http.Error(w, "log in at "+loginPath+" with the hub's token (climated token prints it)", http.StatusUnauthorized)
		}
	})
}

func (h *Handler) authorised(r *http.Request) bool {
	if h.opts.Token == "" {
		return false
	}
	if given, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		return h.tokenMatches(strings.TrimSpace(given))
	}
	c, err := r.Cookie(cookieName)
	return err == nil && h.validSession(c.Value)
}

// tokenMatches compares hashes, so the time taken says nothing of the token.
func (h *Handler) tokenMatches(given string) bool {
	a, b := sha256.Sum256([]byte(given)), sha256.Sum256([]byte(h.opts.Token))
	return subtle.ConstantTimeCompare(a[:], b[:]) == 1
}

// A session is its expiry and a MAC of it keyed by the token: no state on
// the hub, and a new token ends every session.
func (h *Handler) session(exp int64) string {
	key := sha256.Sum256([]byte("climated dashboard session\x00" + h.opts.Token))
	m := hmac.New(sha256.New, key[:])
	m.Write([]byte(strconv.FormatInt(exp, 10)))
	return strconv.FormatInt(exp, 10) + "." + base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

func (h *Handler) validSession(v string) bool {
	expText, _, ok := strings.Cut(v, ".")
	exp, err := strconv.ParseInt(expText, 10, 64)
	if !ok || err != nil || exp < h.opts.Now().Unix() {
		return false
	}
	return hmac.Equal([]byte(v), []byte(h.session(exp)))
}

func (h *Handler) serveLogin(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodGet:
		h.loginForm(w, http.StatusOK, "")
	case r.Method != http.MethodPost:
		http.Error(w, "GET or POST", http.StatusMethodNotAllowed)
	case h.opts.Token == "":
		http.Error(w, "this hub has no token: open the dashboard on the hub itself", http.StatusForbidden)
	default:
		r.Body = http.MaxBytesReader(w, r.Body, 4096)
		// The right token always gets in; only wrong ones are counted
		// and limited (auth_limit.go).
		if !h.tokenMatches(strings.TrimSpace(r.PostFormValue("token"))) {
			if no := h.wrongToken(r, "dashboard login"); no != nil {
				no.refuse(w)
				return
			}
			h.loginForm(w, http.StatusUnauthorized, "That is not the hub's token.")
			return
		}
		exp := h.opts.Now().Add(h.opts.SessionTTL)
		http.SetCookie(w, &http.Cookie{Name: cookieName, Value: h.session(exp.Unix()), Path: "/", Expires: exp,
			MaxAge: int(h.opts.SessionTTL / time.Second), HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: h.overTLS(r)})
		http.Redirect(w, r, "/", http.StatusSeeOther)
	}
}

func (h *Handler) overTLS(r *http.Request) bool {
	return r.TLS != nil || h.opts.TrustForwardedProto && strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https")
}

// loginPage is the login form; %s is the escaped message after a failure.
// (No html/template: its reflection would keep every method of the binary.)
const loginPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark"><link rel="icon" href="data:,">
<title>climated — log in</title><link rel="stylesheet" href="` + StylesheetPath + `"></head>
<body><main class="login consent"><div class="card">
<h1>climated</h1>
<p>The dashboard of this hub opens with the hub's token.</p>
<form method="post" action="/dash/login">
<label for="token">The hub's token (<code>climated token</code> prints it)</label>
<input id="token" name="token" type="password" autocomplete="current-password" required autofocus>
%s<div class="actions"><button type="submit" class="primary">Open the dashboard</button></div>
</form></div></main></body></html>
`

func (h *Handler) loginForm(w http.ResponseWriter, status int, msg string) {
	hd := w.Header()
	hd.Set("Content-Type", "text/html; charset=utf-8")
	hd.Set("Cache-Control", "no-store")
	setPageHeaders(hd)
	w.WriteHeader(status)
	if msg != "" {
		msg = `<p class="error" role="alert">` + html.EscapeString(msg) + "</p>\n"
	}
	fmt.Fprintf(w, loginPage, msg)
}
