package transport

import (
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/internal/testutil"
)

// TestSDKWarningsAreRateLimited: the same go-sdk warning is logged once per
// DefaultLogQuiet, then with the count left out; its INFO goes to DEBUG.
func TestSDKWarningsAreRateLimited(t *testing.T) {
	var out testutil.Buffer
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	log := slog.New(newQuietHandler(slog.NewTextHandler(&out, nil), func() time.Time { return now }))
	for range 100 {
		log.Warn("calling notifications/resources/list_changed: rejected by transport")
		log.Error("method invalid during initialization", "method", "tools/list")
		log.Info("resource updated notification sent", "subscriber_count", 0)
	}
	if lines := out.Lines(); len(lines) != 2 || !strings.Contains(lines[0], "level=WARN") || !strings.Contains(lines[1], "level=WARN") {
		t.Fatalf("after 300 records:\n%s", strings.Join(lines, "\n"))
	}
	now = now.Add(DefaultLogQuiet)
	log.Warn("calling notifications/resources/list_changed: rejected by transport")
	if lines := out.Lines(); len(lines) != 3 || !strings.Contains(lines[2], "suppressed_since_last=99") {
		t.Fatalf("a period later:\n%s", strings.Join(out.Lines(), "\n"))
	}
	// A notification to a session that keeps no stream open is the
	// client's choice, not a fault: DEBUG (it broke TestLogBudget's minute
	// of silence when a client closed its stream in that minute).
	log.Warn("calling notifications/resources/list_changed: rejected by transport: undelivered message: stream not connected or already closed")
	if lines := out.Lines(); len(lines) != 3 {
		t.Fatalf("an undelivered notification was logged at INFO or above:\n%s", strings.Join(lines, "\n"))
	}
}
