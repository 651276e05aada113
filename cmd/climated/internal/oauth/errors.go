package oauth

import (
	"encoding/json"
	"net/http"
)

// oauthError is an error response of RFC 6749 §5.2 (and RFC 7591 §3.2.2):
// a code from the RFCs and words that say what was wrong.
type oauthError struct {
	status int
	Code   string `json:"error"`
	Desc   string `json:"error_description,omitempty"`
}

func (e *oauthError) Error() string { return e.Code + ": " + e.Desc }

func invalidRequest(desc string) *oauthError {
	return &oauthError{http.StatusBadRequest, "invalid_request", desc}
}

func invalidGrant(desc string) *oauthError {
	return &oauthError{http.StatusBadRequest, "invalid_grant", desc}
}

func invalidClient(desc string) *oauthError {
	return &oauthError{http.StatusUnauthorized, "invalid_client", desc}
}

func invalidTarget(desc string) *oauthError {
	return &oauthError{http.StatusBadRequest, "invalid_target", desc}
}

func invalidScope(desc string) *oauthError {
	return &oauthError{http.StatusBadRequest, "invalid_scope", desc}
}

// writeJSON answers v with the headers every token-endpoint answer needs.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Pragma", "no-cache")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// writeError answers e, or a plain server_error for anything else (its
// words stay in the log, not with the client). Each refusal is one log
// line with the words the client got, which say what to do: the owner
// reads there why an assistant could not register or sign in.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	e, ok := err.(*oauthError)
	if !ok {
		s.opts.Logger.Error("oauth request failed", "path", r.URL.Path, "err", err)
		e = &oauthError{http.StatusInternalServerError, "server_error", "the hub could not answer; its log says why"}
	} else {
		s.refused(r, e.Code, e.Desc)
	}
	if e.status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Basic realm="climated"`)
	}
	writeJSON(w, e.status, e)
}

// refused logs a refused OAuth request: where, which client (when the
// request named one) and the reason, which says what to do.
func (s *Server) refused(r *http.Request, code, reason string) {
	s.opts.Logger.Warn("oauth sign-in refused", "path", r.URL.Path, "client_id", r.FormValue("client_id"), "error", code, "reason", reason)
}
