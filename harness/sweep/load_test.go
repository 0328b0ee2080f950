package sweep

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"

	_ "modernc.org/sqlite"

	"github.com/tfbench/tfbench/dataset"
	"github.com/tfbench/tfbench/harness/load"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/suite"
	"github.com/tfbench/tfbench/internal/testenv"
)

// copyServer is a server whose database copy is at path, opened anew on
// each call; nothing else of it is there.
type copyServer struct {
	Server
	path string
}

func (s *copyServer) Database() (dataset.Database, error) { return dataset.Open(s.path) }

// newCopyServer makes the dataset in a temporary folder and a copyServer on
// a copy of it; work is the folder.
func newCopyServer(t *testing.T) (srv *copyServer, work string) {
	t.Helper()
	work = t.TempDir()
	source, path := filepath.Join(work, "tfb.db"), filepath.Join(work, "copy.db")
	if _, err := dataset.Ensure(source); err != nil {
		t.Fatal(err)
	}
	if err := dataset.Copy(source, path); err != nil {
		t.Fatal(err)
	}
	return &copyServer{path: path}, work
}

// TestPageCheckReadsWorld: the page and db checks under load read the
// server's database copy when the shot is set up, so a change between tests
// is seen; a copy that cannot be read fails every checked response.
func TestPageCheckReadsWorld(t *testing.T) {
	srv, work := newCopyServer(t)
	db, err := sql.Open("sqlite", srv.path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	header := []byte("Server: x\r\nDate: Sun, 29 Nov 2026 19:00:00 GMT\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: 1\r\n")
	jsonHeader := []byte("Server: x\r\nDate: Sun, 29 Nov 2026 19:00:00 GMT\r\nContent-Type: application/json\r\n")
	ctx := context.Background()
	page, dbTest := suite.Test{Type: model.Page}, suite.Test{Type: model.DB}
	pageCheck := func() func(int, []byte, []byte) error { return loadCheck(ctx, srv, page, Shot{N: 3}) }
	before, err := testenv.WorldPage(db, 3)
	if err != nil {
		t.Fatal(err)
	}
	if err := pageCheck()(200, header, before); err != nil {
		t.Errorf("the page as rendered: %v", err)
	}
	var old int
	if err := db.QueryRow("SELECT randomNumber FROM World WHERE id = 2").Scan(&old); err != nil {
		t.Fatal(err)
	}
	row := []byte(fmt.Sprintf(`{"id":2,"randomNumber":%d}`, old))
	if err := loadCheck(ctx, srv, dbTest, Shot{})(200, jsonHeader, row); err != nil {
		t.Errorf("the db row as read: %v", err)
	}
	if _, err := db.Exec("UPDATE World SET randomNumber = ? WHERE id = 2", old%10000+1); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf(`row 2: randomNumber "%d", want "%d" (World id 2)`, old, old%10000+1)
	if err := pageCheck()(200, header, before); err == nil || err.Error() != want {
		t.Errorf("the page from before the change: %v, want %q", err, want)
	}
	want = fmt.Sprintf(`id 2 randomNumber %d, want %d (World)`, old, old%10000+1)
	if err := loadCheck(ctx, srv, dbTest, Shot{})(200, jsonHeader, row); err == nil || err.Error() != want {
		t.Errorf("the db row from before the change: %v, want %q", err, want)
	}
	srv.path = filepath.Join(work, "missing.db")
	want = "cannot check the rows: database " + srv.path + ": stat " + srv.path + ": no such file or directory"
	if err := pageCheck()(200, header, before); err == nil || err.Error() != want {
		t.Errorf("a missing copy: %v, want %q", err, want)
	}
}

// TestStreamOptions: a stream shot's load options check with the timeline
// against the copy's World and keep the page's body cap; an unreadable copy
// fails every checked response.
func TestStreamOptions(t *testing.T) {
	srv, work := newCopyServer(t)
	st := suite.Test{Name: "stream", Type: model.Stream, Parts: 4, Settings: suite.Settings{Timeout: 8e9}}
	var o load.Options
	rec := streamOptions(context.Background(), srv, st, Shot{N: 10}, &o)
	if rec == nil || o.CheckTimeline == nil || o.MaxCheckBytes != pageCheckBytes {
		t.Fatalf("recorder %v, CheckTimeline set %v, MaxCheckBytes %d", rec, o.CheckTimeline != nil, o.MaxCheckBytes)
	}
	head := []byte("Server: x\r\nDate: Sun, 29 Nov 2026 19:00:00 GMT\r\nContent-Type: text/html; charset=utf-8\r\nTransfer-Encoding: chunked\r\n")
	want := "part 0 missing: rows 1..2 not sent (want parts 0..3, each once); part 1 missing: rows 3..5 not sent (want parts 0..3, each once); part 2 missing: rows 6..7 not sent (want parts 0..3, each once); part 3 missing: rows 8..10 not sent (want parts 0..3, each once)"
	if err := o.CheckTimeline(200, head, []byte("<html></html>"), load.Timeline{}); err == nil || err.Error() != want {
		t.Errorf("an empty page: %v, want %q", err, want)
	}
	srv.path = filepath.Join(work, "missing.db")
	o = load.Options{}
	if rec := streamOptions(context.Background(), srv, st, Shot{N: 10}, &o); rec != nil {
		t.Error("a recorder without a World")
	}
	want = "cannot check the rows: database " + srv.path + ": stat " + srv.path + ": no such file or directory"
	if err := o.CheckTimeline(200, head, nil, load.Timeline{}); err == nil || err.Error() != want {
		t.Errorf("a missing copy: %v, want %q", err, want)
	}
}
