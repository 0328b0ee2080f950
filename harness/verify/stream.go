package verify

import (
	"bytes"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"golang.org/x/net/html"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/suite"
)

// The stream page (docs/ssr.md, "The streamed page"): GET
// /stream?rows=N&parts=K answers a chunked HTML page with K part tables,
// <table class="part" data-part="k">, and its rows wherever the framework's
// streaming protocol puts them (React may send a part's table early and its
// later rows as hidden segments). The rule reads rows by id, not by place:
// each part table once, part k's rows floor(k*N/K)+1 .. floor((k+1)*N/K)
// each once and in id order in the body, each with World's randomNumber.

// ExpectedStreamParts is the parts a stream page of rows rows must hold for a
// parts value of k: k clamped to 1..16, then to rows when rows is smaller (the
// contract). A raw parameter is read by paramInt first, a missing or
// non-numeric one standing for 4 (suite.DefaultParts).
func ExpectedStreamParts(k, rows int) int {
	k = min(max(k, 1), suite.MaxParts)
	return max(min(k, rows), 1)
}

// partRange is part k's World ids of a page of n rows in parts parts: lo..hi.
func partRange(k, n, parts int) (lo, hi int) {
	return k*n/parts + 1, (k + 1) * n / parts
}

// partOf is the part of a page of n rows in parts parts that holds World id
// id (1..n).
func partOf(id, n, parts int) int {
	for k := range parts {
		if _, hi := partRange(k, n, parts); id <= hi {
			return k
		}
	}
	return parts - 1
}

// streamPart is one part as the stream rule read it: how many part tables
// carry its index, its rows in body order, and the body offset just past
// the last byte of its rows (its arrival: the latest of them to arrive).
type streamPart struct {
	count int
	rows  []streamRow
	end   int
}

// streamRow is one row with class "row": its data-id attribute, its cells'
// texts (character references decoded, comments skipped) and the body
// offset just past its </tr> (or where the next row or its table began).
type streamRow struct {
	dataID string
	cells  []string
	end    int
}

// streamPage is a stream page as scanned: the part tables' counts by
// data-part, every row in body order, the problems met while reading it;
// checkStream fills parts.
type streamPage struct {
	tables map[int]int
	rows   []streamRow
	bad    []string // data-part values that are not integers
	parts  map[int]*streamPart
}

// scanStream reads body's part tables and rows with the HTML tokenizer
// (script and style text is raw, so a table inside a script is no table).
func scanStream(body []byte) streamPage {
	p := streamPage{tables: map[int]int{}}
	z := html.NewTokenizer(bytes.NewReader(body))
	off := 0
	row := -1 // the open row's index in p.rows
	inCell := false
	closeRow := func(at int) {
		if row >= 0 && p.rows[row].end == 0 {
			p.rows[row].end = at
		}
		row, inCell = -1, false
	}
	for {
		tt := z.Next()
		raw := len(z.Raw())
		off += raw
		switch tt {
		case html.ErrorToken:
			closeRow(off)
			return p
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			switch string(name) {
			case "table":
				for hasAttr {
					var key, v []byte
					key, v, hasAttr = z.TagAttr()
					if string(key) == "data-part" {
						n, err := strconv.Atoi(strings.TrimSpace(string(v)))
						if err != nil || n < 0 {
							p.bad = append(p.bad, string(v))
						} else {
							p.tables[n]++
						}
						break
					}
				}
				closeRow(off - raw)
			case "tr":
				closeRow(off - raw)
				var id string
				isRow := false
				for hasAttr {
					var key, v []byte
					key, v, hasAttr = z.TagAttr()
					switch string(key) {
					case "data-id":
						id = string(v)
					case "class":
						isRow = isRow || hasClass(string(v), "row")
					}
				}
				if isRow {
					p.rows = append(p.rows, streamRow{dataID: id, cells: make([]string, 0, 2)})
					row = len(p.rows) - 1
				}
			case "td", "th":
				if row >= 0 {
					p.rows[row].cells = append(p.rows[row].cells, "")
					inCell = true
				}
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			switch string(name) {
			case "tr":
				closeRow(off)
			case "table", "tbody":
				closeRow(off - raw)
			case "td", "th":
				inCell = false
			}
		case html.TextToken:
			if inCell && row >= 0 {
				cells := p.rows[row].cells
				cells[len(cells)-1] += string(z.Text())
			}
		}
	}
}

// hasClass reports whether the class attribute value v lists c.
func hasClass(v, c string) bool {
	for _, f := range strings.Fields(v) {
		if f == c {
			return true
		}
	}
	return false
}

// checkStream applies the stream body rule to body for a page of rows rows in
// parts parts, against world (nil: ids only); problems are capped at most. It
// returns the page's parts, whose ends give their arrival.
func checkStream(r *Result, body []byte, world World, rows, parts int, most model.Verdict) streamPage {
	if ends, ok := streamFast(body, world, rows, parts); ok {
		p := streamPage{parts: make(map[int]*streamPart, parts)}
		for k, end := range ends {
			p.parts[k] = &streamPart{count: 1, end: end}
		}
		return p
	}
	return checkStreamTokens(r, body, world, rows, parts, most)
}

// checkStreamTokens is checkStream without the fast path: the page read by
// the HTML tokenizer (scanStream).
func checkStreamTokens(r *Result, body []byte, world World, rows, parts int, most model.Verdict) streamPage {
	p := scanStream(body)
	p.parts = make(map[int]*streamPart, parts)
	if len(body) == 0 {
		r.addCapped(model.Fail, most, "empty body (stream rules)")
		return p
	}
	for _, v := range p.bad {
		r.addCapped(model.Fail, most, "data-part %q is not a part index 0..%d (stream rules)", v, parts-1)
	}
	for k := range parts {
		p.parts[k] = &streamPart{count: p.tables[k]}
	}
	for k, n := range p.tables {
		if k >= parts {
			r.addCapped(model.Fail, most, "part %d: not a part of %d (want parts 0..%d, each once)", k, parts, parts-1)
		} else if n > 1 {
			r.addCapped(model.Fail, most, "part %d: %d tables, want 1 (want parts 0..%d, each once)", k, n, parts-1)
		}
	}
	wrong := 0
	for _, row := range p.rows {
		id := 0
		if len(row.cells) > 0 {
			id, _ = strconv.Atoi(strings.TrimSpace(row.cells[0]))
		}
		if id < 1 || id > rows {
			if wrong++; wrong <= maxRowReasons {
				cell := ""
				if len(row.cells) > 0 {
					cell = row.cells[0]
				}
				r.addCapped(model.Fail, most, "a row's id %q is not a World id 1..%d (stream rules)", cell, rows)
			}
			continue
		}
		pt := p.parts[partOf(id, rows, parts)]
		pt.rows = append(pt.rows, row)
		pt.end = max(pt.end, row.end)
	}
	for k := range parts {
		pt := p.parts[k]
		lo, hi := partRange(k, rows, parts)
		if pt.count == 0 && len(pt.rows) == 0 {
			r.addCapped(model.Fail, most, "part %d missing: rows %d..%d not sent (want parts 0..%d, each once)", k, lo, hi, parts-1)
			continue
		}
		if pt.count == 0 {
			r.addCapped(model.Fail, most, "part %d: no <table class=\"part\" data-part=\"%d\"> (want parts 0..%d, each once)", k, k, parts-1)
		}
		if len(pt.rows) != hi-lo+1 {
			r.addCapped(model.Fail, most, "part %d: %d rows, want %d (ids %d..%d)", k, len(pt.rows), hi-lo+1, lo, hi)
		}
		for i, row := range pt.rows[:min(len(pt.rows), hi-lo+1)] {
			reason := streamRowProblem(k, lo+i, row, world)
			if reason == "" {
				continue
			}
			if wrong++; wrong <= maxRowReasons {
				r.addCapped(model.Fail, most, "%s", reason)
			}
		}
	}
	if wrong > maxRowReasons {
		r.addCapped(model.Fail, most, "and %d more rows wrong", wrong-maxRowReasons)
	}
	return p
}

// streamRowProblem words what is wrong with the row of part k that should
// be World id, or returns "".
func streamRowProblem(k, id int, row streamRow, world World) string {
	want := strconv.Itoa(id)
	if len(row.cells) != 2 {
		return fmt.Sprintf("part %d: row %d: %d cells, want 2 (id, randomNumber)", k, id, len(row.cells))
	}
	if got := strings.TrimSpace(row.cells[0]); got != want {
		return fmt.Sprintf("part %d: row %d: id %q, want %q (each part's rows in id order)", k, id, got, want)
	}
	if strings.TrimSpace(row.dataID) != want {
		return fmt.Sprintf("part %d: row %d: data-id %q, want %q", k, id, row.dataID, want)
	}
	if world == nil {
		return ""
	}
	if id > len(world) {
		return fmt.Sprintf("part %d: row %d: World has no id %d (the database copy has %d rows)", k, id, id, len(world))
	}
	if got, want := strings.TrimSpace(row.cells[1]), strconv.FormatInt(world[id-1], 10); got != want {
		return fmt.Sprintf("part %d: row %d: randomNumber %q, want %q (World id %d)", k, id, got, want, id)
	}
	return ""
}

// checkStreamHeaders adds the stream page's framing rule to the page's
// headers: chunked (no Content-Length); with encoding (under load, where the
// page's header rule is not run) also not compressed.
func checkStreamHeaders(r *Result, h http.Header, encoding bool) {
	if v := h.Get("Content-Length"); v != "" {
		r.add(model.Fail, "Content-Length %s: a stream page is sent chunked as it renders, without Content-Length (stream rules)", v)
	}
	if v := h.Get("Content-Encoding"); encoding && v != "" && v != "identity" {
		r.add(model.Fail, "Content-Encoding %s, want none (stream rules: the flushes are measured as sent)", v)
	}
}

// StreamResponse checks one stream page response of rows rows in parts
// parts against world: status 200, the page headers, chunked and
// uncompressed, and the stream body rule. No I/O; safe for concurrent use.
func StreamResponse(world World, rows, parts, status int, header http.Header, body []byte) Result {
	return streamResponse(world, rows, parts, model.Fail, status, header, body)
}

func streamResponse(world World, rows, parts int, most model.Verdict, status int, header http.Header, body []byte) Result {
	r := pass()
	r.PageBytes = len(body)
	if status != http.StatusOK {
		r.add(model.Fail, "status %d, want 200 (TFB rules, every response)", status)
		return r
	}
	checkHeaders(&r, model.Stream, header)
	checkStreamHeaders(&r, header, false)
	checkStream(&r, body, world, rows, parts, most)
	return r
}
