package testutil

import (
	"bytes"
	"slices"
	"strings"
	"sync"
)

// Buffer is a bytes.Buffer that one goroutine (a logger, a child
// process's output) writes while the test reads it.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String is what was written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Lines are the lines written so far, empty ones left out.
func (b *Buffer) Lines() []string {
	return slices.DeleteFunc(strings.Split(b.String(), "\n"), func(l string) bool { return l == "" })
}
