package faultserver

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"html/template"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	_ "modernc.org/sqlite" // registers database/sql driver "sqlite"
)

// The cheat modes: servers that pass verification and then,
// under load, answer right only where a load generator sampling 1 in
// CheckedEvery responses per connection looks: each connection's
// positions 1, 1+CheckedEvery, 1+2·CheckedEvery, … Positions count the
// requests to test paths on one TCP connection (ConnContext), from 1.
// Like every mode they first answer Config.After requests (over all
// connections) correctly; set After above verification's requests so that
// verification sees only right answers. Each cheats on its own path only.
const (
	// ModeCheatJSON answers /json with CheatJSONBody (27 bytes, as the
	// right body) at every other position.
	ModeCheatJSON Mode = "cheat-json"
	// ModeCheatFortunes answers /fortunes with the page lacking the
	// fortune added at request time (ExtraFortune, id 0): 12 rows, not 13.
	ModeCheatFortunes Mode = "cheat-fortunes"
	// ModeCheatDB answers /db with the row's right id and a wrong
	// randomNumber, the right one's successor in 1..10000 (n%10000+1).
	ModeCheatDB Mode = "cheat-db"
	// ModeCheatPage answers /ssr?rows=N with the first half of the rows
	// (N/2, rounded down: 10 of 20, none of 1).
	ModeCheatPage Mode = "cheat-page"
	// ModeExtraResponse answers every request right; from request After+1
	// on, each connection's request at a position that is a multiple of
	// ExtraEvery (50, 100, …) is answered twice: its response and one more
	// complete copy, unrequested, written at once. The connection is then
	// served by hand (hijacked) until it closes.
	ModeExtraResponse Mode = "extra-response"
)

// Fixed values of the cheat modes.
const (
	// CheckedEvery is the load generator's sampling the cheat modes play
	// to: 1 response in 100 per connection, besides the first
	// (harness/load's DefaultCheckEvery before every response was checked).
	CheckedEvery = 100
	// ExtraEvery is how often ModeExtraResponse adds a response.
	ExtraEvery = 50
	// CheatJSONBody is ModeCheatJSON's wrong /json body.
	CheatJSONBody = `{"message":"Hello World!!"}`
	// ExtraFortune is the message of the fortune a /fortunes page adds at
	// request time (id 0, TFB rules, fortunes).
	ExtraFortune = "Additional fortune added at request time."
	// PagePath is the page's path (tfbench's default, /ssr?rows=N).
	PagePath = "/ssr"
	// HTMLType is the Content-Type of /fortunes and /ssr.
	HTMLType = "text/html; charset=utf-8"
	// worldRows is the World table's size: ids 1..10000, randomNumber in
	// 1..10000 (dataset.WorldRows).
	worldRows = 10000
)

// cheatPath is the path each cheat mode answers wrong.
var cheatPath = map[Mode]string{ModeCheatJSON: "/json", ModeCheatFortunes: "/fortunes", ModeCheatDB: "/db", ModeCheatPage: PagePath}

// cheats reports whether m is a cheat mode (ModeExtraResponse included).
func (m Mode) cheats() bool {
	_, ok := cheatPath[m]
	return ok || m == ModeExtraResponse
}

// testPath reports whether path is one of the server's test paths, the
// ones Config.After and the positions count.
func testPath(path string) bool {
	switch path {
	case "/json", "/plaintext", "/db", "/fortunes", PagePath:
		return true
	}
	return false
}

type connKey struct{}

// ConnContext is the http.Server.ConnContext the cheat modes need: it
// gives each connection the counter its positions are counted with. Start
// and Main set it; under Handler alone every request is its connection's
// first, so the cheat modes answer right.
func ConnContext(ctx context.Context, _ net.Conn) context.Context {
	return context.WithValue(ctx, connKey{}, new(atomic.Int64))
}

// connPosition counts r on its connection and returns its position there,
// 1 for the first (and for every request without ConnContext).
func connPosition(r *http.Request) int64 {
	if n, ok := r.Context().Value(connKey{}).(*atomic.Int64); ok {
		return n.Add(1)
	}
	return 1
}

// serveCheat answers a request to a test path, the k-th within the fault
// (≤ 0: before it) and at position pos on its connection: right, unless
// the mode cheats on it (cheat) or adds a response (serveExtra). The
// database paths of the other modes come here too, and are answered right.
func (h *handler) serveCheat(w http.ResponseWriter, r *http.Request, k, pos int64) {
	if h.c.Mode == ModeExtraResponse && k > 0 && pos%ExtraEvery == 0 {
		h.serveExtra(w, r, pos)
		return
	}
	status, ctype, body := h.render(r.URL.Path, r.URL.Query(), h.cheat(r.URL.Path, k, pos))
	answer(w, status, ctype, body)
}

// cheat reports whether the mode answers path wrong as the k-th request
// within the fault at position pos on its connection: after After, on its
// own path, where a generator sampling 1 in CheckedEvery does not look.
func (h *handler) cheat(path string, k, pos int64) bool {
	return k > 0 && cheatPath[h.c.Mode] == path && (pos-1)%CheckedEvery != 0
}

// serveExtra takes the connection over (ModeExtraResponse): it writes the
// answer to the request at position pos twice in one write, then reads and
// answers the connection's next requests by hand, again twice at every
// multiple of ExtraEvery, until the client closes it or shutdown.
func (h *handler) serveExtra(w http.ResponseWriter, r *http.Request, pos int64) {
	conn, brw, ok := h.hijack(w)
	if !ok {
		return
	}
	defer h.untrack(conn)
	path, query, closing := r.URL.Path, r.URL.Query(), r.Close
	for {
		out := rawAnswer(h.render(path, query, false))
		if pos%ExtraEvery == 0 {
			out += out
		}
		if _, err := io.WriteString(conn, out); err != nil || closing {
			return
		}
		req, ok := nextRequest(brw.Reader)
		if !ok {
			return
		}
		path, query, closing = req.URL.Path, req.URL.Query(), req.Close
		if testPath(path) {
			h.served.Add(1)
			pos++
		}
	}
}

// rawAnswer is one complete response written by hand: status line,
// Server, Date (RFC 7231, now), Content-Type, Content-Length and body.
func rawAnswer(status int, ctype, body string) string {
	return fmt.Sprintf("HTTP/1.1 %d %s\r\nServer: %s\r\nDate: %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n%s",
		status, http.StatusText(status), ServerName, time.Now().UTC().Format(http.TimeFormat), ctype, len(body), body)
}

// render is the answer to GET path?query: right, or the mode's wrong
// answer when cheat is set. A database error is a 500 naming it, any other
// path a 404.
func (h *handler) render(path string, query url.Values, cheat bool) (status int, ctype, body string) {
	var err error
	switch path {
	case "/json":
		if cheat {
			return 200, "application/json", CheatJSONBody
		}
		return 200, "application/json", JSONBody
	case "/plaintext":
		return 200, "text/plain", PlaintextBody
	case "/db":
		ctype = "application/json"
		body, err = h.dbBody(cheat)
	case "/fortunes":
		ctype = HTMLType
		body, err = h.fortunesBody(cheat)
	case PagePath:
		ctype = HTMLType
		body, err = h.pageBody(query.Get("rows"), cheat)
	default:
		return http.StatusNotFound, "text/plain; charset=utf-8", "404 page not found\n"
	}
	if err != nil {
		return http.StatusInternalServerError, "text/plain", "faultserver: GET " + path + ": " + err.Error()
	}
	return 200, ctype, body
}

// database is the dataset behind /db, /fortunes and /ssr, opened on first
// use.
type database struct {
	once sync.Once
	db   *sql.DB
	err  error
}

// database opens Config.Database once, read by up to 4 connections.
func (h *handler) database() (*sql.DB, error) {
	h.data.once.Do(func() {
		if h.c.Database == "" {
			h.data.err = errors.New("no database (" + EnvDatabase + " is not set)")
			return
		}
		if _, err := os.Stat(h.c.Database); err != nil {
			h.data.err = err
			return
		}
		h.data.db, h.data.err = sql.Open("sqlite", h.c.Database+"?_pragma=busy_timeout(5000)&_pragma=synchronous(NORMAL)")
		if h.data.err == nil {
			h.data.db.SetMaxOpenConns(4)
		}
	})
	return h.data.db, h.data.err
}

// closeDatabase closes the database if it was opened; none opens later.
func (h *handler) closeDatabase() {
	h.data.once.Do(func() { h.data.err = errors.New("server closed") })
	if h.data.db != nil {
		h.data.db.Close()
	}
}

// dbBody is the db test's answer: one random World row as
// {"id":ID,"randomNumber":N}; with cheat, N is wrong (n%10000+1).
func (h *handler) dbBody(cheat bool) (string, error) {
	db, err := h.database()
	if err != nil {
		return "", err
	}
	id := rand.IntN(worldRows) + 1
	var n int
	if err := db.QueryRow("SELECT randomNumber FROM World WHERE id = ?", id).Scan(&n); err != nil {
		return "", fmt.Errorf("World row %d: %w", id, err)
	}
	if cheat {
		n = n%worldRows + 1
	}
	return fmt.Sprintf(`{"id":%d,"randomNumber":%d}`, id, n), nil
}

// fortune is one Fortune row.
type fortune struct {
	ID      int
	Message string
}

// fortunesPage is the fortunes page as the reference page
// (harness/verify/fortunes-expected.html), escaped by html/template.
var fortunesPage = template.Must(template.New("fortunes").Parse(
	`<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>` +
		`{{range .}}<tr><td>{{.ID}}</td><td>{{.Message}}</td></tr>{{end}}` +
		`</table></body></html>`))

// fortunesBody is the fortunes test's page: every Fortune row read now,
// plus ExtraFortune (left out with cheat), sorted by message.
func (h *handler) fortunesBody(cheat bool) (string, error) {
	db, err := h.database()
	if err != nil {
		return "", err
	}
	rows, err := db.Query("SELECT id, message FROM Fortune")
	if err != nil {
		return "", fmt.Errorf("Fortune: %w", err)
	}
	defer rows.Close()
	var list []fortune
	for rows.Next() {
		var f fortune
		if err := rows.Scan(&f.ID, &f.Message); err != nil {
			return "", fmt.Errorf("Fortune row: %w", err)
		}
		list = append(list, f)
	}
	if err := rows.Err(); err != nil {
		return "", fmt.Errorf("Fortune rows: %w", err)
	}
	if !cheat {
		list = append(list, fortune{0, ExtraFortune})
	}
	slices.SortFunc(list, func(a, b fortune) int { return strings.Compare(a.Message, b.Message) })
	var b bytes.Buffer
	err = fortunesPage.Execute(&b, list)
	return b.String(), err
}

// worldRow is one World row.
type worldRow struct{ ID, RandomNumber int }

// worldPage is the page (tfbench's page contract, docs/ssr.md): World rows
// 1..N, one table row each, id then randomNumber.
var worldPage = template.Must(template.New("ssr").Parse(
	`<!DOCTYPE html><html><head><meta charset="utf-8"><title>World</title></head><body>` +
		`<table><thead><tr><th>id</th><th>randomNumber</th></tr></thead><tbody>` +
		`{{range .}}<tr class="row" data-id="{{.ID}}"><td class="id">{{.ID}}</td><td class="num">{{.RandomNumber}}</td></tr>{{end}}` +
		`</tbody></table></body></html>`))

// pageRows is the rows a page holds for the raw rows value q: the integer
// clamped to 1..10000, 1 when missing or not a number (verify's
// ExpectedPageRows).
func pageRows(q string) int {
	n, err := strconv.Atoi(strings.TrimSpace(q))
	if errors.Is(err, strconv.ErrRange) {
		err = nil
	}
	switch {
	case err != nil || n < 1:
		return 1
	case n > worldRows:
		return worldRows
	}
	return n
}

// pageBody is the page of World rows 1..pageRows(q) read now; with cheat
// only the first half of them.
func (h *handler) pageBody(q string, cheat bool) (string, error) {
	db, err := h.database()
	if err != nil {
		return "", err
	}
	n := pageRows(q)
	rows, err := db.Query("SELECT id, randomNumber FROM World WHERE id BETWEEN 1 AND ? ORDER BY id", n)
	if err != nil {
		return "", fmt.Errorf("World: %w", err)
	}
	defer rows.Close()
	list := make([]worldRow, 0, n)
	for rows.Next() {
		var w worldRow
		if err := rows.Scan(&w.ID, &w.RandomNumber); err != nil {
			return "", fmt.Errorf("World row: %w", err)
		}
		list = append(list, w)
	}
	if err := rows.Err(); err != nil {
		return "", fmt.Errorf("World rows: %w", err)
	}
	if cheat {
		list = list[:len(list)/2]
	}
	var b bytes.Buffer
	err = worldPage.Execute(&b, list)
	return b.String(), err
}
