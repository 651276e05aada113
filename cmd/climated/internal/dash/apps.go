package dash

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/climated/climated/cmd/climated/internal/oauth"
)

// Apps is what the dashboard needs of the hub's authorization server
// (oauth.Server): the assistants signed in with OAuth, and revoking one.
// The Registry logs each revocation (once, at INFO); the dashboard does not.
type Apps interface {
	Clients(ctx context.Context) ([]oauth.ClientInfo, error)
	Revoke(ctx context.Context, id string) error
}

// Paths of the connected apps' endpoints, served when Options.Apps is set.
const (
	AppsPath   = "/api/clients"
	RevokePath = "/api/clients/revoke"
)

// app is a connected app as AppsPath lists it: what `climated clients
// --json` shows, with times in Unix seconds.
type app struct {
	ID       string   `json:"id"`
	Name     string   `json:"name"`
	Scopes   []string `json:"scopes"`
	Grants   int      `json:"grants"`    // live sign-ins
	LastUsed int64    `json:"last_used"` // 0: never
}

func (h *Handler) serveApps(w http.ResponseWriter, r *http.Request) {
	list, err := h.opts.Apps.Clients(r.Context())
	if err != nil {
		h.log.Error("list connected apps", "err", err)
		http.Error(w, "the hub could not list the connected apps; its log says why", http.StatusInternalServerError)
		return
	}
	out := make([]app, 0, len(list))
	for _, c := range list {
		a := app{ID: c.ID, Name: c.Name, Scopes: c.Scopes, Grants: c.Grants}
		if a.Scopes == nil {
			a.Scopes = []string{}
		}
		if !c.LastUsed.IsZero() {
			a.LastUsed = c.LastUsed.Unix()
		}
		out = append(out, a)
	}
	data, _ := json.Marshal(out) // strings and numbers only: no error
	writeJSON(w, r, data)
}

// revokeRequest is RevokePath's body. It must be JSON: a form of another
// site cannot send that without a preflight the hub does not answer, on
// top of the Origin check every POST passes (checkOrigin).
type revokeRequest struct {
	ClientID string `json:"client_id"`
}

func (h *Handler) serveRevoke(w http.ResponseWriter, r *http.Request) {
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		http.Error(w, "send the client id as JSON: {\"client_id\": \"…\"}", http.StatusUnsupportedMediaType)
		return
	}
	var req revokeRequest
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4096)).Decode(&req); err != nil || req.ClientID == "" {
		http.Error(w, "send the client id as JSON: {\"client_id\": \"…\"}", http.StatusBadRequest)
		return
	}
	err := h.opts.Apps.Revoke(r.Context(), req.ClientID)
	switch {
	case errors.Is(err, oauth.ErrNoClient):
		http.Error(w, err.Error(), http.StatusNotFound)
	case err != nil:
		h.log.Error("revoke a connected app", "client_id", req.ClientID, "err", err)
		http.Error(w, "the hub could not revoke it; its log says why", http.StatusInternalServerError)
	default:
		w.WriteHeader(http.StatusNoContent)
	}
}
