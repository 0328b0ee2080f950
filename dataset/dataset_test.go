package dataset

import (
	"database/sql"
	"os"
	"path/filepath"
	"testing"
)

// pinnedHash is ContentHash of a generated dataset, computed once and pinned
// here: a change of generator, seed, reduction or Fortune text (on any
// machine or Go version) changes it and fails TestContentHashPinned.
const pinnedHash = "2f9f3e71be2c892aaaf9fcd2eecaab727d48270f25a451bed3dc8bf601d4c9cf"

// pinnedFirst are the first five World.randomNumber values (ids 1..5).
var pinnedFirst = []int{796, 8663, 6245, 1091, 5889}

func generate(t *testing.T, name string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := Generate(p); err != nil {
		t.Fatalf("Generate: %v", err)
	}
	return p
}

func hash(t *testing.T, p string) string {
	t.Helper()
	h, err := ContentHash(p)
	if err != nil {
		t.Fatalf("ContentHash(%s): %v", p, err)
	}
	return h
}

func TestContentHashPinned(t *testing.T) {
	a := generate(t, "a.db")
	b := generate(t, "b.db")
	ha, hb := hash(t, a), hash(t, b)
	if ha != hb {
		t.Fatalf("two generations differ: %s vs %s", ha, hb)
	}
	if ha != pinnedHash {
		t.Fatalf("ContentHash = %s, pinned %s: the World generator or Fortune rows changed", ha, pinnedHash)
	}
	for _, side := range []string{"-wal", "-shm", "-journal"} {
		if _, err := os.Stat(a + side); err == nil {
			t.Errorf("%s left beside the dataset after Generate/ContentHash", a+side)
		}
	}
	entries, _ := os.ReadDir(filepath.Dir(a))
	if len(entries) != 1 {
		names := []string{}
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("directory holds %v, want only a.db (temp file not cleaned up?)", names)
	}
}

func TestRandomNumbersPinned(t *testing.T) {
	got := RandomNumbers()
	if len(got) != WorldRows {
		t.Fatalf("len = %d, want %d", len(got), WorldRows)
	}
	for i, want := range pinnedFirst {
		if got[i] != want {
			t.Errorf("World id %d randomNumber = %d, pinned %d", i+1, got[i], want)
		}
	}
}

func TestTables(t *testing.T) {
	p := generate(t, "w.db")
	db, err := openReadOnly(p)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()

	// journal_mode=WAL is stored in the header: file format read and write
	// versions (bytes 18 and 19) are 2 for WAL, 1 for rollback journals.
	raw, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if string(raw[:16]) != "SQLite format 3\x00" || raw[18] != 2 || raw[19] != 2 {
		t.Errorf("header %q, versions %d/%d; want an SQLite file with WAL versions 2/2", raw[:16], raw[18], raw[19])
	}

	var n, minID, maxID, minR, maxR int
	if err := db.QueryRow("SELECT count(*), min(id), max(id), min(randomNumber), max(randomNumber) FROM World").
		Scan(&n, &minID, &maxID, &minR, &maxR); err != nil {
		t.Fatal(err)
	}
	if n != 10000 || minID != 1 || maxID != 10000 {
		t.Errorf("World: %d rows, ids %d..%d; want 10000 rows, ids 1..10000", n, minID, maxID)
	}
	if minR < 1 || maxR > 10000 {
		t.Errorf("World.randomNumber in %d..%d, want within 1..10000", minR, maxR)
	}
	// 10,000 uniform draws from 1..10000: the extremes land near the ends.
	if minR > 10 || maxR < 9990 {
		t.Errorf("World.randomNumber in %d..%d, not spread over 1..10000", minR, maxR)
	}

	want := RandomNumbers()
	rows, err := db.Query("SELECT id, randomNumber FROM World ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id, r int
		if err := rows.Scan(&id, &r); err != nil {
			t.Fatal(err)
		}
		if want[id-1] != r {
			t.Fatalf("World id %d randomNumber = %d, want %d", id, r, want[id-1])
		}
	}
	rows.Close()

	rows, err = db.Query("SELECT id, message FROM Fortune ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	var got []Fortune
	for rows.Next() {
		var f Fortune
		if err := rows.Scan(&f.ID, &f.Message); err != nil {
			t.Fatal(err)
		}
		got = append(got, f)
	}
	rows.Close()
	wantF := []Fortune{
		{1, "fortune: No such file or directory"},
		{2, "A computer scientist is someone who fixes things that aren't broken."},
		{3, "After enough decimal places, nobody gives a damn."},
		{4, "A bad random number generator: 1, 1, 1, 1, 1, 4.33e+67, 1, 1, 1"},
		{5, "A computer program does what you tell it to do, not what you want it to do."},
		{6, "Emacs is a nice operating system, but I prefer UNIX. — Tom Christaensen"},
		{7, "Any program that runs right is obsolete."},
		{8, "A list is only as strong as its weakest link. — Donald Knuth"},
		{9, "Feature: A bug with seniority."},
		{10, "Computers make very fast, very accurate mistakes."},
		{11, `<script>alert("This should not be displayed in a browser alert box.");</script>`},
		{12, "フレームワークのベンチマーク"},
	}
	if len(got) != len(wantF) {
		t.Fatalf("Fortune has %d rows, want %d", len(got), len(wantF))
	}
	for i := range wantF {
		if got[i] != wantF[i] {
			t.Errorf("Fortune row %d = %+v, want %+v", i, got[i], wantF[i])
		}
	}
}

func TestCopyIsolated(t *testing.T) {
	src := generate(t, "src.db")
	h0 := hash(t, src)
	dst := filepath.Join(t.TempDir(), "sub", "copy.db")
	if err := Copy(src, dst); err != nil {
		t.Fatal(err)
	}
	if h := hash(t, dst); h != h0 {
		t.Fatalf("copy hash %s, source %s", h, h0)
	}

	db, err := sql.Open("sqlite", dst)
	if err != nil {
		t.Fatal(err)
	}
	res, err := db.Exec("UPDATE World SET randomNumber = randomNumber % 10000 + 1 WHERE id <= 100")
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := res.RowsAffected(); n != 100 {
		t.Fatalf("updated %d rows, want 100", n)
	}
	// While the writer is open the rows live in the copy's WAL; ContentHash
	// must read them from there.
	if _, err := os.Stat(dst + "-wal"); err != nil {
		t.Fatalf("no WAL while the writer is open: %v", err)
	}
	hOpen := hash(t, dst)
	if hOpen == h0 {
		t.Errorf("copy hash unchanged after writing 100 rows (WAL not read)")
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if h := hash(t, dst); h != hOpen {
		t.Errorf("copy hash after close %s, while open %s", h, hOpen)
	}
	if h := hash(t, src); h != h0 {
		t.Errorf("source hash changed after writing to the copy: %s, was %s", h, h0)
	}

	// A second Copy over the written one restores the original content.
	if err := Copy(src, dst); err != nil {
		t.Fatal(err)
	}
	if h := hash(t, dst); h != h0 {
		t.Errorf("re-copied hash %s, want %s", h, h0)
	}
}

func TestEnsure(t *testing.T) {
	p := filepath.Join(t.TempDir(), "d", "tfb.db")
	created, err := Ensure(p)
	if err != nil || !created {
		t.Fatalf("Ensure on a missing file = %v, %v; want true, nil", created, err)
	}
	st0, _ := os.Stat(p)
	created, err = Ensure(p)
	if err != nil || created {
		t.Fatalf("Ensure on an existing file = %v, %v; want false, nil", created, err)
	}
	st1, _ := os.Stat(p)
	if !st0.ModTime().Equal(st1.ModTime()) || st0.Size() != st1.Size() {
		t.Errorf("Ensure rewrote an existing file")
	}
}

func TestContentHashMissing(t *testing.T) {
	p := filepath.Join(t.TempDir(), "none.db")
	if _, err := ContentHash(p); err == nil {
		t.Fatal("ContentHash of a missing file: no error")
	}
	if _, err := os.Stat(p); err == nil {
		t.Error("ContentHash created the missing file")
	}
}
