package dataset

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenReadsAndChanges: a copy opened with Open reads the generated World,
// takes a Fortune row above the largest id and gives it back, and changes a
// World row in place.
func TestOpenReadsAndChanges(t *testing.T) {
	ctx := context.Background()
	p := generate(t, "tfb.db")
	db, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if db.Where() != p {
		t.Errorf("Where = %q, want %q", db.Where(), p)
	}
	w, err := db.World(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(w) != WorldRows {
		t.Fatalf("World has %d rows, want %d", len(w), WorldRows)
	}
	for i, n := range pinnedFirst {
		if w[int64(i+1)] != int64(n) {
			t.Errorf("World row %d = %d, want %d", i+1, w[int64(i+1)], n)
		}
	}
	id, err := db.InsertFortune(ctx, "added")
	if err != nil || id != len(Fortunes)+1 {
		t.Fatalf("InsertFortune = %d, %v; want %d", id, err, len(Fortunes)+1)
	}
	if err := db.DeleteFortune(ctx, id); err != nil {
		t.Fatal(err)
	}
	if id2, err := db.InsertFortune(ctx, "again"); err != nil || id2 != id {
		t.Errorf("InsertFortune after delete = %d, %v; want %d", id2, err, id)
	}
	if err := db.SetRandomNumber(ctx, 3, 42); err != nil {
		t.Fatal(err)
	}
	if w, err := db.World(ctx); err != nil || w[3] != 42 {
		t.Errorf("World row 3 = %d, %v; want 42", w[3], err)
	}
}

// TestOpenRefusesMissing: a missing copy is an error naming it, never an
// empty database the driver would create.
func TestOpenRefusesMissing(t *testing.T) {
	p := filepath.Join(t.TempDir(), "none.db")
	if _, err := Open(p); err == nil || !strings.Contains(err.Error(), "database "+p+":") {
		t.Errorf("Open(missing) = %v, want an error naming %s", err, p)
	}
	if _, err := Open(""); err == nil || err.Error() != "no database path given (Target.DatabasePath)" {
		t.Errorf("Open(\"\") = %v", err)
	}
}
