package verify

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	htmltemplate "html/template"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/suite"
)

// templateDB is a SQLite dataset (World 10,000 rows, the 12 standard
// Fortune rows, WAL mode) built once by TestMain; each test server works on
// its own copy.
var templateDB string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "verify-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	templateDB = filepath.Join(dir, "dataset.db")
	if err := buildDataset(templateDB); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// Date re-check for the tests that use Run with a real clock: above the
	// Date's 1 s resolution, below the production 3 s.
	dateRecheck = 1100 * time.Millisecond
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// buildDataset writes the test dataset to path.
func buildDataset(path string) error {
	db, err := sql.Open("sqlite", path)
	if err != nil {
		return err
	}
	defer db.Close()
	stmts := []string{
		"PRAGMA journal_mode=WAL",
		"CREATE TABLE World (id INTEGER PRIMARY KEY, randomNumber INTEGER NOT NULL)",
		"CREATE TABLE Fortune (id INTEGER PRIMARY KEY, message TEXT NOT NULL)",
	}
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			return fmt.Errorf("%s: %w", s, err)
		}
	}
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for id := 1; id <= worldMax; id++ {
		if _, err := tx.Exec("INSERT INTO World VALUES (?, ?)", id, rng.IntN(worldMax)+1); err != nil {
			return err
		}
	}
	for _, f := range standardFortunes {
		if _, err := tx.Exec("INSERT INTO Fortune VALUES (?, ?)", f.ID, f.Message); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// copyDataset copies the template dataset into a test's temp dir.
func copyDataset(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(templateDB)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "world.db")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// reply is what a reference handler sends; variants change it.
type reply struct {
	status int
	header http.Header // a nil value suppresses net/http's own (Date, Content-Type)
	body   []byte
	// noLength sends neither Content-Length nor Transfer-Encoding (the
	// body ends when the connection closes).
	noLength bool
	// chunked sends the body with Transfer-Encoding: chunked.
	chunked bool
}

// serverOpts make the reference server break one rule.
type serverOpts struct {
	// realDate leaves Date to net/http (the real clock); otherwise Date
	// ticks one second per response, so a short re-check sees it change.
	realDate bool
	// mutate changes a reply before it is sent.
	mutate func(t model.TestType, q string, rp *reply)
	// rows overrides the row count of a queries or updates reply for the
	// raw queries value q (n is the correct count).
	rows func(q string, n int) int
	// written is how many of n updated rows are written back (default n).
	written func(n int) int
	// fortunes replaces the fortunes page: rows are the Fortune table's
	// rows plus the id 0 row, unsorted.
	fortunes func(rows []fortune) []byte
	// cacheFortunes renders the fortunes page once and serves it forever.
	cacheFortunes bool
	// pageRows overrides the row count of a page reply for the raw rows
	// value q (n is the correct count).
	pageRows func(q string, n int) int
	// page replaces the page's renderer (refPageHTML): rows are the World
	// rows 1..n read from the database.
	page func(rows []worldRow) []byte
	// cachePage renders each page size once and serves it forever.
	cachePage bool
}

// refServer is a correct server for all six tests (unless opts say
// otherwise) over a copy of the test dataset.
type refServer struct {
	opts   serverOpts
	db     *sql.DB
	dbPath string
	srv    *httptest.Server
	nextID atomic.Int64 // World ids are handed out in turn, so no id repeats
	clock  atomic.Int64 // fake Date: seconds after dateBase

	mu      sync.Mutex
	log     []logged
	fortune []byte         // the cached page, with cacheFortunes
	pages   map[int][]byte // the cached pages by size, with cachePage
}

// logged is one request the server saw.
type logged struct {
	path   string
	at     time.Time
	header http.Header
}

var dateBase = time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)

// startServer starts a reference server; the test stops it.
func startServer(t *testing.T, opts serverOpts) *refServer {
	t.Helper()
	s := &refServer{opts: opts, dbPath: copyDataset(t)}
	var err error
	s.db, err = sql.Open("sqlite", s.dbPath+"?_pragma=busy_timeout(5000)&_pragma=synchronous(NORMAL)")
	if err != nil {
		t.Fatal(err)
	}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(func() {
		s.srv.Close()
		s.db.Close()
	})
	return s
}

// target returns the server as a verification Target.
func (s *refServer) target() Target {
	return Target{BaseURL: s.srv.URL, DatabasePath: s.dbPath}
}

// requests returns the request log.
func (s *refServer) requests() []logged {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.log)
}

func (s *refServer) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.log = append(s.log, logged{r.URL.RequestURI(), time.Now(), r.Header.Clone()})
	s.mu.Unlock()
	t := typeOfPath(r.URL.Path)
	q := r.URL.Query().Get("queries")
	if t == model.Page {
		q = r.URL.Query().Get("rows")
	}
	rp, err := s.reply(t, q)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if s.opts.mutate != nil {
		s.opts.mutate(t, q, &rp)
	}
	s.write(w, rp)
}

// reply builds the correct reply for test type t.
func (s *refServer) reply(t model.TestType, q string) (reply, error) {
	rp := reply{status: http.StatusOK, header: http.Header{"Server": {"tfbench-ref"}}}
	if !s.opts.realDate {
		rp.header.Set("Date", dateBase.Add(time.Duration(s.clock.Add(1))*time.Second).Format(http.TimeFormat))
	}
	var err error
	switch t {
	case model.JSON:
		rp.body, err = json.Marshal(map[string]string{"message": "Hello, World!"})
	case model.Plaintext:
		rp.body = []byte("Hello, World!")
	case model.DB:
		var rows []worldRow
		rows, err = s.world(1, false)
		if err == nil {
			rp.body, err = json.Marshal(rows[0])
		}
	case model.Queries, model.Updates:
		n := clampRows(q)
		if s.opts.rows != nil {
			n = s.opts.rows(q, n)
		}
		var rows []worldRow
		rows, err = s.world(n, t == model.Updates)
		if err == nil {
			rp.body, err = json.Marshal(rows)
		}
	case model.Fortunes:
		rp.body, err = s.fortunesPage()
		rp.header.Set("Content-Type", "text/html; charset=utf-8")
		return rp, err
	case model.Page:
		rp.body, err = s.ssrPage(q)
		rp.header.Set("Content-Type", "text/html; charset=utf-8")
		return rp, err
	default:
		return rp, fmt.Errorf("no route %q", t)
	}
	if t == model.Plaintext {
		rp.header.Set("Content-Type", "text/plain")
	} else {
		rp.header.Set("Content-Type", "application/json")
	}
	return rp, err
}

// clampRows is the reference server's own reading of the queries value:
// an integer clamped to 1..500, else 1.
func clampRows(q string) int {
	n, err := strconv.Atoi(q)
	if err != nil || n < 1 {
		return 1
	}
	return min(n, 500)
}

// worldRow is a World row as JSON.
type worldRow struct {
	ID           int `json:"id"`
	RandomNumber int `json:"randomNumber"`
}

// world reads n World rows, each by its own query, and with update gives
// each a new randomNumber (always different from the old one) and writes
// back opts.written(n) of them.
func (s *refServer) world(n int, update bool) ([]worldRow, error) {
	rows := make([]worldRow, n)
	for i := range rows {
		id := int(s.nextID.Add(1)-1)%worldMax + 1
		rows[i].ID = id
		if err := s.db.QueryRow("SELECT randomNumber FROM World WHERE id = ?", id).Scan(&rows[i].RandomNumber); err != nil {
			return nil, err
		}
	}
	if !update {
		return rows, nil
	}
	write := n
	if s.opts.written != nil {
		write = s.opts.written(n)
	}
	tx, err := s.db.Begin()
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	for i := range rows {
		rows[i].RandomNumber = rows[i].RandomNumber%worldMax + 1
		if i < write {
			if _, err := tx.Exec("UPDATE World SET randomNumber = ? WHERE id = ?", rows[i].RandomNumber, rows[i].ID); err != nil {
				return nil, err
			}
		}
	}
	return rows, tx.Commit()
}

// fortunesTemplate renders the fortunes page the way a typical framework
// does: html/template (&#34; and &#39;), indented.
var fortunesTemplate = htmltemplate.Must(htmltemplate.New("f").Parse(`<!DOCTYPE html>
<html>
  <head><meta charset="utf-8"><title>Fortunes</title></head>
  <body>
    <table>
      <tr><th>id</th><th>message</th></tr>
      {{range .}}<tr><td>{{.ID}}</td><td>{{.Message}}</td></tr>
      {{end}}
    </table>
  </body>
</html>
`))

// fortunesPage loads every Fortune row, adds the id 0 row, sorts by
// message and renders (or serves the cached page, or the opts' page).
func (s *refServer) fortunesPage() ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.opts.cacheFortunes && s.fortune != nil {
		return s.fortune, nil
	}
	rs, err := s.db.Query("SELECT id, message FROM Fortune")
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	var rows []fortune
	for rs.Next() {
		var f fortune
		if err := rs.Scan(&f.ID, &f.Message); err != nil {
			return nil, err
		}
		rows = append(rows, f)
	}
	if err := rs.Err(); err != nil {
		return nil, err
	}
	rows = append(rows, fortune{ID: 0, Message: "Additional fortune added at request time."})
	var page []byte
	if s.opts.fortunes != nil {
		page = s.opts.fortunes(rows)
	} else {
		page = templatePage(rows)
	}
	s.fortune = page
	return page, nil
}

// templatePage sorts rows by message and renders them with fortunesTemplate.
func templatePage(rows []fortune) []byte {
	rows = slices.Clone(rows)
	slices.SortFunc(rows, func(a, b fortune) int { return strings.Compare(a.Message, b.Message) })
	type row struct {
		ID      int
		Message string
	}
	var view []row
	for _, f := range rows {
		view = append(view, row{f.ID, f.Message})
	}
	var b bytes.Buffer
	if err := fortunesTemplate.Execute(&b, view); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// write sends rp.
func (s *refServer) write(w http.ResponseWriter, rp reply) {
	if rp.noLength {
		writeNoLength(w, rp)
		return
	}
	for k, v := range rp.header {
		w.Header()[k] = v
	}
	if !rp.chunked {
		w.Header().Set("Content-Length", strconv.Itoa(len(rp.body)))
	}
	w.WriteHeader(rp.status)
	if !rp.chunked {
		w.Write(rp.body)
		return
	}
	half := len(rp.body) / 2
	w.Write(rp.body[:half])
	w.(http.Flusher).Flush()
	w.Write(rp.body[half:])
}

// writeNoLength sends rp on the raw connection with no length header and
// closes it.
func writeNoLength(w http.ResponseWriter, rp reply) {
	conn, buf, err := w.(http.Hijacker).Hijack()
	if err != nil {
		panic(err)
	}
	defer conn.Close()
	fmt.Fprintf(buf, "HTTP/1.1 %d %s\r\n", rp.status, http.StatusText(rp.status))
	for k, vs := range rp.header {
		for _, v := range vs {
			fmt.Fprintf(buf, "%s: %s\r\n", k, v)
		}
	}
	buf.WriteString("Connection: close\r\n\r\n")
	buf.Write(rp.body)
	buf.Flush()
}

// verifyOne runs one check of type t against a reference server with opts,
// with a short Date re-check (the fake Date ticks per response).
func verifyOne(t *testing.T, typ model.TestType, opts serverOpts) Result {
	t.Helper()
	s := startServer(t, opts)
	checks := []Check{{Name: "t", Type: typ, Path: pathOf(typ)}}
	res, ok := run(context.Background(), s.target(), checks, 10*time.Millisecond)["t"]
	if !ok {
		t.Fatalf("no result for test %q", "t")
	}
	return res
}

// pathOf is the suite path of a test type.
func pathOf(t model.TestType) string {
	if t == model.Page {
		return suite.DefaultPath[model.Page]
	}
	if t.TakesN() {
		return "/" + string(t) + "?queries={n}"
	}
	return "/" + string(t)
}

// typeOfPath is the test type a reference server path serves: "/ssr" is
// page, else the path names the type ("/queries").
func typeOfPath(path string) model.TestType {
	path, _, _ = strings.Cut(path, "?")
	if path == "/ssr" {
		return model.Page
	}
	return model.TestType(strings.TrimPrefix(path, "/"))
}
