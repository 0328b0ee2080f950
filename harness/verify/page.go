package verify

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/tfbench/tfbench/dataset"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/suite"
)

// The page test (tfbench's SSR page, not a TFB test; docs/tfb-rules.md,
// page): GET /ssr?rows=N answers an HTML page whose first <table> holds one
// data row per World id 1..N, ascending, each with two cells, the id and the
// randomNumber as decimal text. Markup and scripts around the table are
// allowed; the rows are read from the database on every request.

// World is the World table of a database copy: World[id-1] is the
// randomNumber of row id, for ids 1..len(World) (ReadWorld). A nil World
// leaves the rows' values unchecked (ids and count still are).
type World []int64

// maxPageRows is the most rows a page may hold (suite.MaxRows, the World
// table's size): N is clamped to 1..10000.
const maxPageRows = suite.MaxRows

// maxRowReasons is how many wrong rows one page reports by row; the rest
// are counted ("and 17 more rows wrong").
const maxRowReasons = 3

// ReadWorld reads the World table from the SQLite database copy at dbPath
// (the framework's DATABASE_PATH), with the adapters' connection settings.
// Errors name the file; a table whose ids are not exactly 1..N is an error.
func ReadWorld(ctx context.Context, dbPath string) (World, error) {
	db, err := dataset.Open(dbPath)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	return WorldOf(ctx, db)
}

// WorldOf reads the World table of db (ReadWorld's rules, on any Database).
func WorldOf(ctx context.Context, db dataset.Database) (World, error) {
	m, err := db.World(ctx)
	if err != nil {
		return nil, err
	}
	return worldFromMap(m, db.Where())
}

// worldFromMap turns Database.World's id -> randomNumber map into a World; the
// ids must be 1..len(m).
func worldFromMap(m map[int64]int64, path string) (World, error) {
	w := make(World, len(m))
	for i := range w {
		n, ok := m[int64(i+1)]
		if !ok {
			return nil, fmt.Errorf("read World from %s: no row with id %d (want ids 1..%d)", path, i+1, len(m))
		}
		w[i] = n
	}
	return w, nil
}

// ExpectedPageRows is the number of rows a page must hold for a rows value
// of n: n clamped to 1..10000 (the page contract). A raw parameter is read
// by paramInt first, a missing or non-numeric one standing for 1.
func ExpectedPageRows(n int) int {
	return min(max(n, 1), maxPageRows)
}

// PageResponse checks one page response of rows rows (≤ 0: any in
// 1..10000) against world: status 200, the fortunes headers and the first
// <table>'s rows (docs/tfb-rules.md, page). No I/O; safe for concurrent use.
func PageResponse(world World, rows, status int, header http.Header, body []byte) Result {
	return pageResponse(world, rows, model.Fail, status, header, body)
}

// PageChecker is Checker for a page test: the page rule for rows rows
// against world, read from the server's copy just before the sample
// (LoadChecker with Type page). Only a fail is an error; safe for
// concurrent use.
func PageChecker(world World, rows int) func(status int, head, body []byte) error {
	return LoadChecker(LoadRef{Type: model.Page, Rows: rows, World: world})
}

// pageResponse runs the page rules; body problems are capped at most (the
// rows=10001 case is a warn only), status and header problems are not.
// PageBytes is the body's size.
func pageResponse(world World, rows int, most model.Verdict, status int, header http.Header, body []byte) Result {
	r := pass()
	r.PageBytes = len(body)
	if status != http.StatusOK {
		r.add(model.Fail, "status %d, want 200 (TFB rules, every response)", status)
		return r
	}
	checkHeaders(&r, model.Page, header)
	checkPage(&r, body, world, rows, most)
	return r
}

// checkPage applies the page body rule: the fast path (pageFast) passes
// a page in the usual form without building anything; any other page is
// read again as normalised tokens (pageTable), which explains.
func checkPage(r *Result, body []byte, world World, rows int, most model.Verdict) {
	if len(body) == 0 {
		r.addCapped(model.Fail, most, "empty body (page rules)")
		return
	}
	if pageFast(body, world, rows) {
		return
	}
	got := pageTable(body)
	if got.liveScript {
		r.addCapped(model.Fail, most, "a live <script> element inside the table (page rules: the rows are text, never live markup)")
	}
	if !got.found {
		r.addCapped(model.Fail, most, "no <table> element: the World rows go in the page's first <table> (page rules)")
		return
	}
	limit := rows
	switch {
	case rows <= 0:
		limit = maxPageRows
		if len(got.rows) < 1 || len(got.rows) > maxPageRows {
			r.addCapped(model.Fail, most, "%d rows, want 1..10000 (page rules: one row per World id 1..N, N clamped to 1..10000)", len(got.rows))
		}
	case len(got.rows) != rows:
		r.addCapped(model.Fail, most, "%d rows, want %d (page rules: one row per World id 1..N, N clamped to 1..10000)", len(got.rows), rows)
	}
	wrong := 0
	for i, cells := range got.rows[:min(len(got.rows), limit)] {
		reason := rowProblem(i+1, cells, world)
		if reason == "" {
			continue
		}
		if wrong++; wrong <= maxRowReasons {
			r.addCapped(model.Fail, most, "%s", reason)
		}
	}
	if wrong > maxRowReasons {
		r.addCapped(model.Fail, most, "and %d more rows wrong", wrong-maxRowReasons)
	}
}

// rowProblem words what is wrong with data row id (1-based, so its id is
// id) of cells, or returns "".
func rowProblem(id int, cells []string, world World) string {
	if len(cells) != 2 {
		return fmt.Sprintf("row %d: %d cells, want 2 (id, randomNumber)", id, len(cells))
	}
	if got, want := strings.TrimSpace(cells[0]), strconv.Itoa(id); got != want {
		return fmt.Sprintf("row %d: id %q, want %q", id, got, want)
	}
	if world == nil {
		return ""
	}
	if id > len(world) {
		return fmt.Sprintf("row %d: World has no id %d (the database copy has %d rows)", id, id, len(world))
	}
	if got, want := strings.TrimSpace(cells[1]), strconv.FormatInt(world[id-1], 10); got != want {
		return fmt.Sprintf("row %d: randomNumber %q, want %q (World id %d)", id, got, want, id)
	}
	return ""
}

// pageTableRows is the first <table> of a page as the slow path reads it.
type pageTableRows struct {
	found bool
	// rows are the data rows (those without a <th>), each its cells' texts
	// with character references decoded.
	rows [][]string
	// liveScript is set when a <script> element starts inside the table.
	liveScript bool
}

// pageTable reads body's first <table> from the fortunes scanner's
// normalised tokens, closing rows and cells where HTML omits end tags, and
// stops at the table's end.
func pageTable(body []byte) pageTableRows {
	var p pageTableRows
	s := newPageScanner(body)
	depth := 0
	var cells []string
	inRow, inCell, header := false, false, false
	endRow := func() {
		if inRow && !header {
			p.rows = append(p.rows, cells)
		}
		cells, inRow, inCell, header = nil, false, false, false
	}
	for {
		if depth > 0 {
			s.liveScript = false
		}
		k, v, ok := s.next()
		if depth > 0 && s.liveScript {
			p.liveScript = true
		}
		if !ok {
			endRow()
			return p
		}
		name := ""
		if k == tokStart || k == tokEnd {
			name = string(v)
		}
		if name == "table" {
			if k == tokStart {
				p.found = true
				depth++
			} else if depth > 0 {
				if depth--; depth == 0 {
					endRow()
					return p
				}
			}
			continue
		}
		if depth == 0 {
			continue
		}
		switch {
		case k == tokStart && name == "tr":
			endRow()
			inRow = true
		case k == tokStart && (name == "td" || name == "th"):
			inRow = true
			header = header || name == "th"
			cells, inCell = append(cells, ""), true
		case k == tokEnd && (name == "td" || name == "th"):
			inCell = false
		case k == tokEnd && name == "tr":
			endRow()
		case k == tokText && inCell:
			cells[len(cells)-1] += string(v)
		}
	}
}
