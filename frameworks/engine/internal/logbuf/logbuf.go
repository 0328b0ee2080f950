// Package logbuf is a log sink for tests: a buffer that a server's or a
// pool's goroutines write while the test reads it.
package logbuf

import (
	"strings"
	"sync"
)

// Buffer is a strings.Builder behind a mutex; the zero value is ready.
type Buffer struct {
	mu sync.Mutex
	b  strings.Builder
}

// Write appends p; it never fails.
func (l *Buffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String is everything written so far.
func (l *Buffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
