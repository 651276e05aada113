package alerting

import (
	"context"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/history"
	"github.com/climated/climated/history/hub"
)

// openAlerting is a hub on a new SQLite history (flushed only when asked)
// and the alerts of cfg over zones on it, both closed when the test ends.
func openAlerting(t *testing.T, cfg config.AlertsConfig, zones ...string) (*hub.Hub, *Alerter) {
	t.Helper()
	ctx := context.Background()
	h, err := hub.Open(ctx, filepath.Join(t.TempDir(), "h.db"), &history.Options{FlushInterval: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close(ctx) })
	a, err := Open(ctx, Deps{Config: cfg, Hub: h, Zones: zones, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.db.Close() })
	return h, a
}
