package oauth

import (
	"fmt"
	"html"
	"net/url"
	"slices"
	"strings"
)

// Bounds of the scopes a sign-in asks for that the hub ignores: they are
// logged and shown on the consent page, so a long list is cut.
const (
	maxIgnored    = 8
	maxIgnoredLen = 64
)

// parseScope reads the scope parameter of a sign-in. climate:read is
// always granted (nothing works without it), alerts:write when asked for
// (the owner has the last word on the consent page), offline_access when
// asked for (ScopeOfflineAccess). Any other scope is ignored, as RFC 6749
// §3.3 lets a server do (the token's scope then says what was granted):
// assistants ask for scopes of their own (ChatGPT openid, email, profile
// and offline_access; Claude claudeai), and refusing them with
// invalid_scope stopped their sign-in. They are returned to be logged.
func parseScope(s string) (granted, ignored []string) {
	granted = []string{ScopeRead}
	for _, sc := range strings.Fields(s) {
		switch {
		case slices.Contains(granted, sc):
		case sc == ScopeAlertsWrite, sc == ScopeOfflineAccess:
			granted = append(granted, sc)
		case len(ignored) < maxIgnored && !slices.Contains(ignored, sc):
			if len(sc) > maxIgnoredLen {
				sc = sc[:maxIgnoredLen] + "…"
			}
			ignored = append(ignored, sc)
		}
	}
	return granted, ignored
}

// grantField is the consent form's checkbox of a scope the owner may
// grant or withhold; its value is the scope.
const grantField = "grant"

// ownerGrant is what the owner grants on the consent form, whatever the
// client asked for: climate:read, alerts:write when its box is ticked, and
// offline_access as asked.
func ownerGrant(asked []string, form url.Values) []string {
	granted := []string{ScopeRead}
	if slices.Contains(form[grantField], ScopeAlertsWrite) {
		granted = append(granted, ScopeAlertsWrite)
	}
	if slices.Contains(asked, ScopeOfflineAccess) {
		granted = append(granted, ScopeOfflineAccess)
	}
	return granted
}

// scopeItems are the consent page's list of what the assistant may do:
// reading always, writing alerts as a box ticked when the client asked
// for it (form is the consent form's id), and the scopes it asked for
// that the hub ignores.
func scopeItems(ar *AuthRequest, form string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n<li><code>%s</code> %s</li>", ScopeRead, html.EscapeString(scopeWords[ScopeRead]))
	checked := ""
	if slices.Contains(ar.Scopes, ScopeAlertsWrite) {
		checked = " checked"
	}
	fmt.Fprintf(&b, "\n<li><label><input type=\"checkbox\" form=\"%s\" name=\"%s\" value=\"%s\"%s> <code>%s</code> %s</label></li>",
		form, grantField, ScopeAlertsWrite, checked, ScopeAlertsWrite, html.EscapeString(scopeWords[ScopeAlertsWrite]))
	if len(ar.Ignored) > 0 {
		fmt.Fprintf(&b, "\n<li class=\"ignored\">It also asked for <code>%s</code>, which this hub does not have: it gets only what is listed here.</li>",
			html.EscapeString(strings.Join(ar.Ignored, " ")))
	}
	return b.String()
}
