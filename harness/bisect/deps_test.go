package bisect

import "testing"

// TestVersionMovesErrors: a lockfile or go.mod that does not parse names
// the file and the side.
func TestVersionMovesErrors(t *testing.T) {
	if _, err := lockMoves("frameworks/x/package-lock.json", []byte(`{"packages":{}}`), []byte(`{"packages":`)); err == nil ||
		err.Error() != "frameworks/x/package-lock.json (after): unexpected end of JSON input" {
		t.Errorf("lockMoves: %v", err)
	}
	if _, err := goModMoves("frameworks/x/go.mod", []byte("module x\nrequire (\n"), []byte("module x\n")); err == nil ||
		err.Error() != "frameworks/x/go.mod (before): frameworks/x/go.mod:3: syntax error (unterminated block started at frameworks/x/go.mod:2:1)" {
		t.Errorf("goModMoves: %v", err)
	}
}
