package tail

import (
	"fmt"
	"testing"
)

func TestBufferLastIndent(t *testing.T) {
	b := &Buffer{Max: 8}
	fmt.Fprint(b, "one\ntwo\nthree\n")
	if got := string(b.Bytes()); got != "o\nthree\n" {
		t.Errorf("Bytes() = %q, want the last 8 bytes", got)
	}
	if got := Last([]byte("a\nb\nc\n"), 2); got != "b\nc" {
		t.Errorf("Last(2) = %q", got)
	}
	if got := Last([]byte("\n"), 2); got != "(no output)" {
		t.Errorf("Last of nothing = %q", got)
	}
	if got := Indent("b\nc"); got != "  | b\n  | c" {
		t.Errorf("Indent = %q", got)
	}
}
