// Package tail keeps the end of a process's output for its errors: the
// last bytes written (Buffer), the last n lines of them (Last), indented
// as a quote (Indent); errors quote Lines lines of a build or server log.
package tail

import "strings"

// Lines is how many lines of build output or server log errors quote.
const Lines = 20

// Buffer keeps the last Max bytes written to it.
type Buffer struct {
	Max int
	buf []byte
}

func (t *Buffer) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.Max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

// Bytes returns what the buffer holds: the last Max bytes written.
func (t *Buffer) Bytes() []byte { return t.buf }

// Last returns the last n lines of b (without a trailing newline), or
// "(no output)" when b holds none.
func Last(b []byte, n int) string {
	s := strings.TrimRight(string(b), "\n")
	if s == "" {
		return "(no output)"
	}
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// Indent quotes s in an error: every line prefixed with "  | ".
func Indent(s string) string { return "  | " + strings.ReplaceAll(s, "\n", "\n  | ") }
