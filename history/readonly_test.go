package history

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadOnlyWithoutDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "none.db")
	_, err := OpenReadOnly(context.Background(), path, nil)
	if err == nil || !strings.Contains(err.Error(), "start climated serve first") {
		t.Errorf("err = %v", err)
	}
}
