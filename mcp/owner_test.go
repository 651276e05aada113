package mcp

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/climated/climated/history/hub"
)

// TestWatcherEndsWithItsContext: the goroutine New starts belongs to the
// context it is given: cancelling it ends the watcher without Close.
func TestWatcherEndsWithItsContext(t *testing.T) {
	store, err := hub.Open(context.Background(), filepath.Join(t.TempDir(), "h.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close(context.Background())
	ctx, cancel := context.WithCancel(context.Background())
	srv := New(ctx, store, nil)
	select {
	case <-srv.done:
		t.Fatal("the watcher ended before its context")
	default:
	}
	cancel()
	select {
	case <-srv.done:
	case <-time.After(5 * time.Second):
		t.Fatal("the watcher still runs after its context ended")
	}
	srv.Close() // still fine after the context ended
}
