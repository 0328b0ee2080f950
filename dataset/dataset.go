// Package dataset makes and checks the one SQLite file every framework reads:
// table World (10,000 rows of id and randomNumber) and table Fortune (the 12
// standard TFB rows), as docs/tfb-rules.md ("The dataset") and docs/design.md ("The
// dataset") describe; and it opens a framework's copy of it (Database, Open) for
// verification and the server hosts.
//
// The file is generated deterministically: the same World rows on every
// machine and Go version, so results from different hosts use the same data.
// ContentHash identifies a dataset by its table contents, not its file bytes
// (SQLite page layout may differ between library versions; the rows may not).
//
// The driver is modernc.org/sqlite (pure Go, driver name "sqlite"), so the
// harness keeps building with CGO_ENABLED=0.
package dataset

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/bits"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"

	_ "modernc.org/sqlite" // registers database/sql driver "sqlite"
)

// WorldRows is the number of rows in table World: ids 1..WorldRows, each
// randomNumber in 1..WorldRows (TFB rules, the dataset).
const WorldRows = 10000

// Seed1 and Seed2 are the two 64-bit seeds of the PCG generator that draws
// World.randomNumber. Changing either changes every World row and therefore
// ContentHash; the dataset test pins the resulting hash.
const (
	Seed1 uint64 = 0x7466_6265_6e63_6831 // "tfbench1"
	Seed2 uint64 = 0x576f_726c_6430_3030 // "World000"
)

// Fortune is one row of table Fortune: id and message (UTF-8 text).
type Fortune struct {
	ID      int
	Message string
}

// Fortunes are the 12 standard TFB Fortune rows in id order, exactly as
// docs/tfb-rules.md lists them (the em dashes are U+2014, the last row is
// Japanese, row 11 is a <script> element that every page must escape).
var Fortunes = []Fortune{
	{1, "fortune: No such file or directory"},
	{2, "A computer scientist is someone who fixes things that aren't broken."},
	{3, "After enough decimal places, nobody gives a damn."},
	{4, "A bad random number generator: 1, 1, 1, 1, 1, 4.33e+67, 1, 1, 1"},
	{5, "A computer program does what you tell it to do, not what you want it to do."},
	{6, "Emacs is a nice operating system, but I prefer UNIX. \u2014 Tom Christaensen"},
	{7, "Any program that runs right is obsolete."},
	{8, "A list is only as strong as its weakest link. \u2014 Donald Knuth"},
	{9, "Feature: A bug with seniority."},
	{10, "Computers make very fast, very accurate mistakes."},
	{11, `<script>alert("This should not be displayed in a browser alert box.");</script>`},
	{12, "フレームワークのベンチマーク"},
}

// Schema is the DDL of the two tables, as executed by Generate.
const Schema = `CREATE TABLE World (id INTEGER PRIMARY KEY, randomNumber INTEGER NOT NULL);
CREATE TABLE Fortune (id INTEGER PRIMARY KEY, message TEXT NOT NULL);`

// RandomNumbers returns the WorldRows randomNumber values of table World in
// id order (element i is the row with id i+1), each in 1..WorldRows.
//
// Stability: the only source of randomness is math/rand/v2's PCG seeded with
// Seed1, Seed2. PCG is a specified algorithm (128-bit LCG state with the
// DXSM output function, as in NumPy's PCG64DXSM and O'Neill's pcg-cpp), so
// its Uint64 sequence is the same on every machine and Go version. The
// reduction to 1..WorldRows is done here, not by rand.Rand.IntN, whose
// derivation the Go team does not promise to keep: Lemire's multiply-shift
// with rejection of the biased low range (an unbiased draw).
func RandomNumbers() []int {
	g := rand.NewPCG(Seed1, Seed2)
	out := make([]int, WorldRows)
	for i := range out {
		out[i] = int(uniform(g, WorldRows)) + 1
	}
	return out
}

// uniform returns an unbiased value in 0..n-1 from g (Lemire, "Fast Random
// Integer Generation in an Interval", 2019).
func uniform(g *rand.PCG, n uint64) uint64 {
	hi, lo := bits.Mul64(g.Uint64(), n)
	if lo < n {
		thresh := -n % n
		for lo < thresh {
			hi, lo = bits.Mul64(g.Uint64(), n)
		}
	}
	return hi
}

// Generate writes a fresh dataset to path: tables World (WorldRows rows from
// RandomNumbers) and Fortune (the 12 Fortunes), journal_mode=WAL stored in
// the file header. The file is built as a temporary file in the same
// directory, checkpointed and closed (no -wal or -shm file remains), then
// renamed over path, so a reader never sees a half-written dataset. An
// existing file at path is replaced. Errors name the path and the step.
func Generate(path string) (err error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("dataset %s: %w", path, err)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("dataset %s: %w", path, err)
	}
	tmp := f.Name()
	f.Close()
	defer func() {
		if err != nil {
			for _, p := range []string{tmp, tmp + "-wal", tmp + "-shm", tmp + "-journal"} {
				os.Remove(p)
			}
		}
	}()
	if err := write(tmp); err != nil {
		return fmt.Errorf("dataset %s: %w", path, err)
	}
	if err := os.Chmod(tmp, 0o644); err != nil {
		return fmt.Errorf("dataset %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("dataset %s: %w", path, err)
	}
	return nil
}

// write fills the (empty) SQLite file at path.
func write(path string) error {
	db, err := sql.Open("sqlite", path)
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, "PRAGMA journal_mode=WAL"); err != nil {
		return fmt.Errorf("journal_mode=WAL: %w", err)
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, Schema); err != nil {
		return fmt.Errorf("create tables: %w", err)
	}
	ins, err := tx.PrepareContext(ctx, "INSERT INTO World (id, randomNumber) VALUES (?, ?)")
	if err != nil {
		return err
	}
	for i, n := range RandomNumbers() {
		if _, err := ins.ExecContext(ctx, i+1, n); err != nil {
			return fmt.Errorf("insert World %d: %w", i+1, err)
		}
	}
	ins.Close()
	for _, f := range Fortunes {
		if _, err := tx.ExecContext(ctx, "INSERT INTO Fortune (id, message) VALUES (?, ?)", f.ID, f.Message); err != nil {
			return fmt.Errorf("insert Fortune %d: %w", f.ID, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	// Closing the last connection checkpoints again and deletes -wal and -shm.
	if err := db.Close(); err != nil {
		return err
	}
	for _, p := range []string{path + "-wal", path + "-shm"} {
		if _, err := os.Stat(p); err == nil {
			return fmt.Errorf("%s left behind after close", p)
		}
	}
	return nil
}

// openReadOnly opens path read-only (an SQLite URI with mode=ro, plus
// query_only so no statement can write even by mistake). A missing file is
// an error: mode=ro never creates one.
//
// A read-only connection to a WAL database would leave -wal and -shm files
// behind (it may not checkpoint or delete them). So a dataset at rest, with
// no -wal file beside it, is opened with immutable=1 as well: SQLite then
// takes no locks and creates no files. When a -wal file exists (a server has
// its copy open, or a writer stopped without closing) the file is opened
// with mode=ro only, so that committed frames still in the WAL are read.
func openReadOnly(path string) (*sql.DB, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	q := "mode=ro&_pragma=query_only(1)&_pragma=busy_timeout(5000)"
	if _, err := os.Stat(abs + "-wal"); errors.Is(err, fs.ErrNotExist) {
		q += "&immutable=1"
	}
	u := url.URL{Scheme: "file", OmitHost: true, Path: abs, RawQuery: q}
	return sql.Open("sqlite", u.String())
}

// ContentHash returns the hex SHA-256 (64 lowercase hex digits) of the
// dataset's contents: every World row (id, randomNumber) in id order, then
// every Fortune row (id, message) in id order, each field length-framed so
// that no two different contents hash alike. It depends on the rows only,
// not on the file's bytes or page layout. The file is opened read-only.
func ContentHash(path string) (string, error) {
	db, err := openReadOnly(path)
	if err != nil {
		return "", fmt.Errorf("dataset %s: %w", path, err)
	}
	defer db.Close()
	h := sha256.New()
	if err := hashTable(h, db, "World", "SELECT id, randomNumber FROM World ORDER BY id"); err != nil {
		return "", fmt.Errorf("dataset %s: %w", path, err)
	}
	if err := hashTable(h, db, "Fortune", "SELECT id, message FROM Fortune ORDER BY id"); err != nil {
		return "", fmt.Errorf("dataset %s: %w", path, err)
	}
	if err := db.Close(); err != nil {
		return "", fmt.Errorf("dataset %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// hashTable writes the table's name, then each row as int64 id and a
// length-prefixed second column, then the row count.
func hashTable(h io.Writer, db *sql.DB, table, query string) error {
	rows, err := db.Query(query)
	if err != nil {
		return fmt.Errorf("table %s: %w", table, err)
	}
	defer rows.Close()
	var buf [8]byte
	putInt := func(v int64) {
		binary.BigEndian.PutUint64(buf[:], uint64(v))
		h.Write(buf[:])
	}
	putBytes := func(b []byte) {
		putInt(int64(len(b)))
		h.Write(b)
	}
	putBytes([]byte(table))
	var n int64
	for rows.Next() {
		var id int64
		var v []byte // randomNumber as its decimal text, message as UTF-8
		if err := rows.Scan(&id, &v); err != nil {
			return fmt.Errorf("table %s: %w", table, err)
		}
		putInt(id)
		putBytes(v)
		n++
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("table %s: %w", table, err)
	}
	putInt(n)
	return nil
}

// Ensure generates the dataset at path when no file exists there and
// reports whether it did. An existing file is left as it is (not checked;
// use ContentHash for that). Errors other than "not found" from stat are
// returned as they are.
func Ensure(path string) (created bool, err error) {
	_, err = os.Stat(path)
	switch {
	case err == nil:
		return false, nil
	case !errors.Is(err, fs.ErrNotExist):
		return false, fmt.Errorf("dataset %s: %w", path, err)
	}
	if err := Generate(path); err != nil {
		return false, err
	}
	return true, nil
}

// Copy makes dst a fresh byte copy of the dataset at src (one per framework
// and round, docs/design.md: every run works on its own copy). src is only read.
// An existing dst and any -wal/-shm files beside it are replaced or removed
// first, so a stale journal from an earlier run cannot be replayed into the
// new copy. The copy is written to a temporary file and renamed into place.
func Copy(src, dst string) (err error) {
	in, err := os.Open(src)
	if err != nil {
		return fmt.Errorf("dataset copy: %w", err)
	}
	defer in.Close()
	for _, p := range []string{src + "-wal"} {
		if st, err := os.Stat(p); err == nil && st.Size() > 0 {
			return fmt.Errorf("dataset copy: %s has a non-empty WAL %s (a writer has it open or it was not closed cleanly)", src, p)
		}
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return fmt.Errorf("dataset copy: %w", err)
	}
	out, err := os.CreateTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".tmp-*")
	if err != nil {
		return fmt.Errorf("dataset copy: %w", err)
	}
	tmp := out.Name()
	defer func() {
		if err != nil {
			out.Close()
			os.Remove(tmp)
		}
	}()
	if _, err := io.Copy(out, in); err != nil {
		return fmt.Errorf("dataset copy %s -> %s: %w", src, dst, err)
	}
	if err := out.Chmod(0o644); err != nil {
		return fmt.Errorf("dataset copy: %w", err)
	}
	if err := out.Close(); err != nil {
		return fmt.Errorf("dataset copy: %w", err)
	}
	for _, p := range []string{dst + "-wal", dst + "-shm", dst + "-journal"} {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("dataset copy: %w", err)
		}
	}
	if err := os.Rename(tmp, dst); err != nil {
		return fmt.Errorf("dataset copy: %w", err)
	}
	return nil
}
