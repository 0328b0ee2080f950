// Command go-stdlib is tfbench's reference server: the six TechEmpower tests
// (docs/tfb-rules.md), the page test (/ssr?rows=N, docs/ssr.md) and the
// streamed page (/stream?rows=N&parts=K, stream.go) on the Go
// standard library alone, net/http, database/sql and html/template, with
// modernc.org/sqlite (pure Go) as the SQLite driver.
// Every ratio in tfbench's reports is taken against this server.
//
// Environment:
//
//	PORT           required: TCP port to listen on (1..65535)
//	DATABASE_PATH  required: the dataset's SQLite file (World, Fortune); it
//	               must exist, the server never creates it
//	HOST           optional: address to bind, default 127.0.0.1
//	TFBENCH_CPU_PROFILE  optional: write a pprof CPU profile there until
//	               shutdown (tfbench bench --profile, docs/profiles.md)
//	TFBENCH_EVENTLOOP_DIR  optional: answer tfbench's memory and GC
//	               monitor on <dir>/<pid>.sock (metrics.go, docs/adapters.md)
//
// Every connection sets busy_timeout=5000 (ms) and synchronous=NORMAL
// (docs/design.md, The dataset: the same per-connection pragmas for every
// adapter). Writes go through a separate one-connection pool whose
// transactions begin IMMEDIATE, so concurrent updates queue in Go instead of
// failing with SQLITE_BUSY on a lock upgrade. Each pool is fronted by a FIFO
// gate as wide as the pool (see gate), and queries run without a cancelable
// context (see dbContext), so that no request starves under load. SIGTERM
// or SIGINT shuts the server down gracefully and closes the database
// (checkpointing its WAL).
package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"log"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	_ "modernc.org/sqlite" // database/sql driver "sqlite"
)

// serverName is the value of the Server header on every response.
const serverName = "go-stdlib"

// worldRows is the number of World rows (ids 1..worldRows); randomNumber is
// drawn from the same range (TFB rules, the dataset).
const worldRows = 10000

// maxQueries is the upper clamp of the queries and updates row count (TFB
// rules, queries test: clamp to 1..500).
const maxQueries = 500

// maxPageRows is the upper clamp of the page test's rows parameter (tfbench
// page contract, docs/ssr.md: clamp to 1..10000, every World row).
const maxPageRows = worldRows

// world is one World row as the db, queries and updates tests return it.
type world struct {
	ID           int32 `json:"id"`
	RandomNumber int32 `json:"randomNumber"`
}

// fortune is one Fortune row.
type fortune struct {
	ID      int32
	Message string
}

// fortunesPage renders the fortunes table exactly as the reference page
// (fortunes-expected.html), escaping every message through html/template.
var fortunesPage = template.Must(template.New("fortunes").Parse(
	`<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>` +
		`{{range .}}<tr><td>{{.ID}}</td><td>{{.Message}}</td></tr>{{end}}` +
		`</table></body></html>`))

// ssrPage renders the page test's World table (tfbench page contract,
// docs/ssr.md): ids 1..N in order, one row per World row, two cells each,
// every value written through html/template's escaping.
var ssrPage = template.Must(template.New("ssr").Parse(
	`<!DOCTYPE html><html><head><meta charset="utf-8"><title>World</title></head><body>` +
		`<table><thead><tr><th>id</th><th>randomNumber</th></tr></thead><tbody>` +
		`{{range .}}<tr class="row" data-id="{{.ID}}"><td class="id">{{.ID}}</td><td class="num">{{.RandomNumber}}</td></tr>{{end}}` +
		`</tbody></table></body></html>`))

// gate is a FIFO counting semaphore: a buffered channel whose capacity is
// the connection count of the pool it fronts. A request enters once before
// its database work (all N queries, or the whole update transaction) and
// leaves after it, so at most cap(g) requests use the pool and database/sql
// never has a waiter (DB.Stats().WaitCount stays 0).
//
// Why: when its pool is exhausted, database/sql (Go 1.23+, sql.go
// putConnDBLocked → connRequestSet.TakeRandom) hands a freed connection to a
// random waiter, and a request with N queries re-queues N times, so some
// wait far longer than others. This happens once the server has more than
// one P (with one P a goroutine rarely yields while it holds a connection).
// Channel senders blocked on a full buffer are admitted in arrival order
// (runtime/chan.go: waitq enqueue/dequeue; a freed slot goes straight to the
// oldest sender, a newcomer cannot overtake it), so the gate is fair.
type gate chan struct{}

// enter waits, in arrival order, for a slot; it returns ctx.Err() if ctx
// ends first (the client went away) and then holds no slot.
func (g gate) enter(ctx context.Context) error {
	select {
	case g <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// leave frees the slot taken by a successful enter.
func (g gate) leave() { <-g }

// dbContext returns ctx without its cancellation, for the database calls a
// request makes once it holds a gate slot.
//
// Why: with a cancelable context (every r.Context() is), database/sql
// (Rows.initContextClose) and modernc.org/sqlite (interruptOnDone) each
// start a goroutine per query, 40 for one queries N=20 request. With one P
// (GOMAXPROCS follows the server's CPU set) that flood overflows the
// 256-slot local run queue into the global one, which the scheduler serves
// once per 61 ticks while local work remains (runtime/proc.go, runqputslow,
// findRunnable), so goroutines moved there, net/http's among them, sat
// runnable for up to 1.3 s (measured at 64 connections, queries N=20: up to
// 2,900 live goroutines against 135 without the flood; p50 0.9 ms, p99
// 600 ms). The cost: a request whose client left still runs its
// queries (at most 500 indexed reads); a wait at the gate still ends early.
func dbContext(ctx context.Context) context.Context { return context.WithoutCancel(ctx) }

// app holds the database pools and prepared statements the handlers share.
type app struct {
	read, write           *sql.DB
	readGate, writeGate   gate // FIFO gates as wide as read and write
	selectWorld, fortunes *sql.Stmt
	selectWorlds          *sql.Stmt // World ids 1..? in order (page test)
	selectBetween         *sql.Stmt // World ids ?..? in order (a stream page's part)
	updateWorld           *sql.Stmt // prepared on the write pool
	logf                  func(format string, args ...any)
}

// dsn builds the modernc.org/sqlite DSN for path: a file: URI with
// mode=rw (fail instead of creating a missing file), the per-connection
// pragmas every adapter sets, and for the write pool _txlock=immediate
// (BEGIN IMMEDIATE: the write lock is taken when the transaction starts).
func dsn(path string, write bool) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	q := "mode=rw&_pragma=busy_timeout(5000)&_pragma=synchronous(NORMAL)"
	if write {
		q += "&_txlock=immediate"
	}
	u := url.URL{Scheme: "file", OmitHost: true, Path: abs, RawQuery: q}
	return u.String(), nil
}

// openApp opens the dataset at path and prepares every statement. Errors
// name the path and the step (a missing file, a missing table).
func openApp(path string) (*app, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("DATABASE_PATH: %w", err)
	}
	readConns := max(4, 2*runtime.GOMAXPROCS(0))
	a := &app{logf: log.Printf, readGate: make(gate, readConns), writeGate: make(gate, 1)}
	var err error
	open := func(write bool) (*sql.DB, error) {
		d, err := dsn(path, write)
		if err != nil {
			return nil, err
		}
		db, err := sql.Open("sqlite", d)
		if err != nil {
			return nil, err
		}
		n := cap(a.readGate)
		if write {
			n = cap(a.writeGate)
		}
		// Keep every connection idle rather than closing it: a new
		// connection re-runs the pragmas and re-prepares statements.
		db.SetMaxOpenConns(n)
		db.SetMaxIdleConns(n)
		if err := db.Ping(); err != nil {
			db.Close()
			return nil, err
		}
		return db, nil
	}
	if a.read, err = open(false); err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	if a.write, err = open(true); err != nil {
		a.read.Close()
		return nil, fmt.Errorf("open %s for writing: %w", path, err)
	}
	for _, p := range []struct {
		db  *sql.DB
		dst **sql.Stmt
		sql string
	}{
		{a.read, &a.selectWorld, "SELECT id, randomNumber FROM World WHERE id = ?"},
		{a.read, &a.fortunes, "SELECT id, message FROM Fortune"},
		{a.read, &a.selectWorlds, "SELECT id, randomNumber FROM World WHERE id BETWEEN 1 AND ? ORDER BY id"},
		{a.read, &a.selectBetween, "SELECT id, randomNumber FROM World WHERE id BETWEEN ? AND ? ORDER BY id"},
		{a.write, &a.updateWorld, "UPDATE World SET randomNumber = ? WHERE id = ?"},
	} {
		if *p.dst, err = p.db.Prepare(p.sql); err != nil {
			a.Close()
			return nil, fmt.Errorf("%s: prepare %q: %w", path, p.sql, err)
		}
	}
	return a, nil
}

// Close closes both pools; the last connection to close checkpoints the WAL.
func (a *app) Close() error {
	return errors.Join(a.read.Close(), a.write.Close())
}

// handler returns the routes with the Server header added to every response.
func (a *app) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /json", a.json)
	mux.HandleFunc("GET /plaintext", a.plaintext)
	mux.HandleFunc("GET /db", a.db)
	mux.HandleFunc("GET /queries", a.queries)
	mux.HandleFunc("GET /updates", a.updates)
	mux.HandleFunc("GET /fortunes", a.fortunesHandler)
	mux.HandleFunc("GET /ssr", a.ssr)
	mux.HandleFunc("GET /stream", a.stream)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Server", serverName)
		mux.ServeHTTP(w, r)
	})
}

// write sends body with an explicit Content-Length (no chunking).
func write(w http.ResponseWriter, contentType string, body []byte) {
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.Write(body)
}

func (a *app) fail(w http.ResponseWriter, r *http.Request, err error) {
	a.logf("%s %s: %v", r.Method, r.URL, err)
	http.Error(w, "internal error", http.StatusInternalServerError)
}

// json: TFB json test, the object built and serialized on every request.
func (a *app) json(w http.ResponseWriter, r *http.Request) {
	body, err := json.Marshal(struct {
		Message string `json:"message"`
	}{"Hello, World!"})
	if err != nil {
		a.fail(w, r, err)
		return
	}
	write(w, "application/json", body)
}

// plaintext: TFB plaintext test.
func (a *app) plaintext(w http.ResponseWriter, r *http.Request) {
	write(w, "text/plain", []byte("Hello, World!"))
}

func randomID() int32 { return int32(rand.IntN(worldRows) + 1) }

func (a *app) loadWorld(ctx context.Context, id int32) (world, error) {
	var wr world
	err := a.selectWorld.QueryRowContext(ctx, id).Scan(&wr.ID, &wr.RandomNumber)
	if err != nil {
		return wr, fmt.Errorf("World id %d: %w", id, err)
	}
	return wr, nil
}

// db: TFB db test, one random World row.
func (a *app) db(w http.ResponseWriter, r *http.Request) {
	rows, err := a.loadWorlds(r.Context(), 1)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	body, err := json.Marshal(rows[0])
	if err != nil {
		a.fail(w, r, err)
		return
	}
	write(w, "application/json", body)
}

// queryCount reads the queries parameter: TFB rules, queries test: clamp to
// 1..500; a missing, empty or non-numeric value means 1. An integer too
// large for int is clamped like any other (Atoi returns it saturated).
func queryCount(r *http.Request) int {
	n, err := strconv.Atoi(r.URL.Query().Get("queries"))
	if (err != nil && !errors.Is(err, strconv.ErrRange)) || n < 1 {
		return 1
	}
	return min(n, maxQueries)
}

// loadWorlds fetches n random World rows, each by its own query, inside one
// pass through the read gate.
func (a *app) loadWorlds(ctx context.Context, n int) ([]world, error) {
	if err := a.readGate.enter(ctx); err != nil {
		return nil, fmt.Errorf("wait for a read connection: %w", err)
	}
	defer a.readGate.leave()
	ctx = dbContext(ctx)
	rows := make([]world, n)
	for i := range rows {
		var err error
		if rows[i], err = a.loadWorld(ctx, randomID()); err != nil {
			return nil, err
		}
	}
	return rows, nil
}

// queries: TFB queries test.
func (a *app) queries(w http.ResponseWriter, r *http.Request) {
	rows, err := a.loadWorlds(r.Context(), queryCount(r))
	if err != nil {
		a.fail(w, r, err)
		return
	}
	body, err := json.Marshal(rows)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	write(w, "application/json", body)
}

// updates: TFB updates test. Each row is read by its own query, given a new
// randomNumber in 1..10000 that differs from the one read (so every row
// really changes), and written back by one UPDATE per row inside a single
// IMMEDIATE transaction before the response is sent.
func (a *app) updates(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	rows, err := a.loadWorlds(ctx, queryCount(r))
	if err != nil {
		a.fail(w, r, err)
		return
	}
	for i := range rows {
		old := rows[i].RandomNumber
		for rows[i].RandomNumber == old {
			rows[i].RandomNumber = randomID()
		}
	}
	if err := a.saveWorlds(ctx, rows); err != nil {
		a.fail(w, r, err)
		return
	}
	body, err := json.Marshal(rows)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	write(w, "application/json", body)
}

// saveWorlds writes rows back in one transaction, inside one pass through
// the write gate (the read gate was left before: a request waiting to write
// holds no read connection).
func (a *app) saveWorlds(ctx context.Context, rows []world) error {
	if err := a.writeGate.enter(ctx); err != nil {
		return fmt.Errorf("wait for the write connection: %w", err)
	}
	defer a.writeGate.leave()
	ctx = dbContext(ctx)
	tx, err := a.write.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin update: %w", err)
	}
	defer tx.Rollback()
	st := tx.StmtContext(ctx, a.updateWorld)
	for _, wr := range rows {
		if _, err := st.ExecContext(ctx, wr.RandomNumber, wr.ID); err != nil {
			return fmt.Errorf("update World id %d: %w", wr.ID, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit update: %w", err)
	}
	return nil
}

// fortunesHandler: TFB fortunes test. Every request reads all Fortune rows,
// adds the request-time row, sorts by message in byte order in code, and
// renders through html/template.
func (a *app) fortunesHandler(w http.ResponseWriter, r *http.Request) {
	list, err := a.loadFortunes(r.Context())
	if err != nil {
		a.fail(w, r, err)
		return
	}
	list = append(list, fortune{0, "Additional fortune added at request time."})
	slices.SortFunc(list, func(x, y fortune) int { return strings.Compare(x.Message, y.Message) })
	var buf bytes.Buffer
	buf.Grow(2048)
	if err := fortunesPage.Execute(&buf, list); err != nil {
		a.fail(w, r, err)
		return
	}
	write(w, "text/html; charset=utf-8", buf.Bytes())
}

// loadFortunes reads every Fortune row inside one pass through the read gate.
func (a *app) loadFortunes(ctx context.Context) ([]fortune, error) {
	if err := a.readGate.enter(ctx); err != nil {
		return nil, fmt.Errorf("wait for a read connection: %w", err)
	}
	defer a.readGate.leave()
	ctx = dbContext(ctx)
	rs, err := a.fortunes.QueryContext(ctx)
	if err != nil {
		return nil, fmt.Errorf("Fortune: %w", err)
	}
	defer rs.Close()
	list := make([]fortune, 0, 16)
	for rs.Next() {
		var f fortune
		if err := rs.Scan(&f.ID, &f.Message); err != nil {
			return nil, fmt.Errorf("Fortune row: %w", err)
		}
		list = append(list, f)
	}
	if err := rs.Err(); err != nil {
		return nil, fmt.Errorf("Fortune rows: %w", err)
	}
	return list, nil
}

// pageRows reads the page test's rows parameter (tfbench page contract,
// docs/ssr.md): a missing, empty or non-numeric value means 1, and the
// count is clamped to 1..10000 (a value too large for int saturates first).
func pageRows(r *http.Request) int {
	n, err := strconv.Atoi(r.URL.Query().Get("rows"))
	if (err != nil && !errors.Is(err, strconv.ErrRange)) || n < 1 {
		return 1
	}
	return min(n, maxPageRows)
}

// ssr: tfbench page test. World rows 1..N read by one query on every
// request, rendered as one table through html/template.
func (a *app) ssr(w http.ResponseWriter, r *http.Request) {
	n := pageRows(r)
	rows, err := a.loadWorldRange(r.Context(), n)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	var buf bytes.Buffer
	buf.Grow(256 + 80*len(rows))
	if err := ssrPage.Execute(&buf, rows); err != nil {
		a.fail(w, r, err)
		return
	}
	write(w, "text/html; charset=utf-8", buf.Bytes())
}

// loadWorldRange reads World ids 1..n in id order with one query, inside
// one pass through the read gate.
func (a *app) loadWorldRange(ctx context.Context, n int) ([]world, error) {
	if err := a.readGate.enter(ctx); err != nil {
		return nil, fmt.Errorf("wait for a read connection: %w", err)
	}
	defer a.readGate.leave()
	ctx = dbContext(ctx)
	rs, err := a.selectWorlds.QueryContext(ctx, n)
	if err != nil {
		return nil, fmt.Errorf("World ids 1..%d: %w", n, err)
	}
	defer rs.Close()
	rows := make([]world, 0, n)
	for rs.Next() {
		var wr world
		if err := rs.Scan(&wr.ID, &wr.RandomNumber); err != nil {
			return nil, fmt.Errorf("World row: %w", err)
		}
		rows = append(rows, wr)
	}
	if err := rs.Err(); err != nil {
		return nil, fmt.Errorf("World rows: %w", err)
	}
	return rows, nil
}

// config reads PORT, DATABASE_PATH and HOST from getenv.
func config(getenv func(string) string) (addr, dbPath string, err error) {
	port := getenv("PORT")
	if port == "" {
		return "", "", errors.New("PORT is not set (the TCP port to listen on)")
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return "", "", fmt.Errorf("PORT=%q is not a port number 1..65535", port)
	}
	dbPath = getenv("DATABASE_PATH")
	if dbPath == "" {
		return "", "", errors.New("DATABASE_PATH is not set (the dataset's SQLite file)")
	}
	host := getenv("HOST")
	if host == "" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port), dbPath, nil
}

func main() {
	log.SetPrefix(serverName + ": ")
	log.SetFlags(0)
	addr, dbPath, err := config(os.Getenv)
	if err != nil {
		log.Fatal(err)
	}
	if path := os.Getenv("TFBENCH_CPU_PROFILE"); path != "" {
		f, err := os.Create(path)
		if err == nil && pprof.StartCPUProfile(f) == nil {
			// Stay deaf to a second SIGTERM until the profile is written.
			signal.Notify(make(chan os.Signal, 1), syscall.SIGTERM)
			defer func() { pprof.StopCPUProfile(); f.Close() }()
		}
	}
	if dir := os.Getenv(envMetricsDir); dir != "" {
		// Before the listener: the harness asks once the server is ready.
		if m, err := serveMetrics(dir); err == nil {
			defer m.Close()
		} else {
			log.Printf("memory monitor: %v", err)
		}
	}
	a, err := openApp(dbPath)
	if err != nil {
		log.Fatal(err)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		a.Close()
		log.Fatal(err)
	}
	srv := &http.Server{Handler: a.handler(), ReadHeaderTimeout: 10 * time.Second}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	log.Printf("listening on http://%s, database %s, GOMAXPROCS %d", ln.Addr(), dbPath, runtime.GOMAXPROCS(0))
	select {
	case err := <-errc:
		a.Close()
		log.Fatal(err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		log.Printf("shutdown: %v", err)
	}
	if err := a.Close(); err != nil {
		log.Printf("close database: %v", err)
	}
}
