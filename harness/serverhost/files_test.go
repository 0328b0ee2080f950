package serverhost

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSourceGuard: an unchanged source passes; a -wal beside it or a
// source gone is an error naming it (the run's test of a changed source is
// in harness/run).
func TestSourceGuard(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tfb.db")
	if err := os.WriteFile(path, []byte("source"), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := guardSource(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.check(); err != nil {
		t.Errorf("unchanged source: %v", err)
	}
	if err := os.WriteFile(path+"-wal", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := g.check(); err == nil || err.Error() != fmt.Sprintf("dataset source %s changed during the run (%s-wal appeared beside it)", path, path) {
		t.Errorf("-wal beside the source: %v", err)
	}
	os.Remove(path)
	if err := g.check(); err == nil || !strings.HasPrefix(err.Error(), "dataset source "+path+" at the end of the run: open "+path+": no such file or directory") {
		t.Errorf("source gone: %v", err)
	}
}

// TestLogFaults counts the SQLITE_BUSY lines written after an offset, in
// any case, over at most 1 MiB.
func TestLogFaults(t *testing.T) {
	path := filepath.Join(t.TempDir(), "server.log")
	old := "GET /updates: database is locked\n"
	body := "listening\nGET /updates: Database Is Locked (5) (SQLITE_BUSY)\nok\nsqlite_busy retry\nGET /db: 200\nlast sqlite_busy without newline"
	if err := os.WriteFile(path, []byte(old+body), 0o644); err != nil {
		t.Fatal(err)
	}
	if n := LogFaults(path, int64(len(old))); n != 3 {
		t.Errorf("%d lines, want 3", n)
	}
	if n := LogFaults(path, 0); n != 4 {
		t.Errorf("from the start: %d lines, want 4", n)
	}
	big := strings.Repeat("x", maxLogScan-1) + "\nSQLITE_BUSY past the scanned MiB\n"
	if err := os.WriteFile(path, []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	if n := LogFaults(path, 0); n != 0 {
		t.Errorf("past 1 MiB: %d lines, want 0", n)
	}
	if n := LogFaults(filepath.Join(t.TempDir(), "none.log"), 0); n != 0 {
		t.Errorf("no log: %d", n)
	}
}

// TestCollectProfiles: Node's names become TEST.cpuprofile (one) or
// TEST.PID[.THREAD][.SEQ].cpuprofile (several), the Go adapter's
// cpu.pprof TEST.pprof; empty files are no profile.
func TestCollectProfiles(t *testing.T) {
	for _, c := range []struct {
		files, want []string
	}{
		{[]string{"CPU.20260102.030405.123.0.001.cpuprofile"}, []string{"db.cpuprofile"}},
		{[]string{"CPU.20260102.030405.123.0.001.cpuprofile", "CPU.20260102.030405.124.0.001.cpuprofile", "CPU.20260102.030405.124.7.002.cpuprofile", "cpu.pprof"},
			[]string{"db.123.cpuprofile", "db.124.7.2.cpuprofile", "db.124.cpuprofile", "db.pprof"}},
		{[]string{"cpu.pprof", "empty.cpuprofile"}, []string{"db.pprof"}},
	} {
		dir, dest := t.TempDir(), t.TempDir()
		for _, f := range c.files {
			data := "x"
			if strings.HasPrefix(f, "empty") {
				data = ""
			}
			os.WriteFile(filepath.Join(dir, f), []byte(data), 0o644)
		}
		got, err := CollectProfiles(dir, dest, "db")
		if err != nil {
			t.Fatal(err)
		}
		for i := range got {
			got[i] = filepath.Base(got[i])
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%v: got %v, want %v", c.files, got, c.want)
		}
	}
	if got, err := CollectProfiles(filepath.Join(t.TempDir(), "missing"), t.TempDir(), "db"); err != nil || len(got) != 0 {
		t.Errorf("missing folder: %v, %v", got, err)
	}
}
