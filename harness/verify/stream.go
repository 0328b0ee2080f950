package verify

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"golang.org/x/net/html"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/suite"
)

// The stream page (docs/ssr.md, "The streamed page"): GET
// /stream?rows=N&parts=K answers a chunked HTML page whose rows sit in K
// part tables, <table class="part" data-part="k">, wherever the framework's
// streaming protocol puts them. The rule reads rows by part, not by place:
// parts 0..K-1 each once, part k holding World ids floor(k*N/K)+1 ..
// floor((k+1)*N/K) in order, each with World's randomNumber.

// ExpectedStreamParts is the parts a stream page of rows rows must hold for
// the raw value of its parts parameter: the integer clamped to 1..16 (missing
// or not a number: 4), then to rows when rows is smaller (the contract).
func ExpectedStreamParts(q string, rows int) int {
	k, err := strconv.Atoi(strings.TrimSpace(q))
	if errors.Is(err, strconv.ErrRange) {
		err = nil // Atoi returns the nearest int
	}
	if err != nil {
		k = suite.DefaultParts
	}
	k = min(max(k, 1), suite.MaxParts)
	return max(min(k, rows), 1)
}

// partRange is part k's World ids of a page of n rows in parts parts: lo..hi.
func partRange(k, n, parts int) (lo, hi int) {
	return k*n/parts + 1, (k + 1) * n / parts
}

// streamPart is one part table as the stream scanner read it.
type streamPart struct {
	count int         // tables with this data-part
	rows  []streamRow // the rows of its first table
	end   int         // body offset just past its first table's </table>
}

// streamRow is one data row of a part table: its data-id attribute and its
// cells' texts (character references decoded, comments skipped).
type streamRow struct {
	dataID string
	cells  []string
}

// streamPage is a stream page's part tables, by data-part value, with the
// problems met while reading it.
type streamPage struct {
	parts    map[int]*streamPart
	bad      []string // data-part values that are not integers
	outside  int      // rows with class "row" outside any part table
	problems []string
}

// scanStream reads body's part tables with the HTML tokenizer (script and
// style text is raw, so a table inside a script is no table).
func scanStream(body []byte) streamPage {
	p := streamPage{parts: map[int]*streamPart{}}
	z := html.NewTokenizer(bytes.NewReader(body))
	off := 0
	var tables []int // the open tables: part index, or -1 for another table
	var cur *streamPart
	var row *streamRow
	inCell := false
	for {
		tt := z.Next()
		off += len(z.Raw())
		switch tt {
		case html.ErrorToken:
			return p
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			switch string(name) {
			case "table":
				k := -1
				for hasAttr {
					var key, v []byte
					key, v, hasAttr = z.TagAttr()
					if string(key) == "data-part" && k == -1 {
						n, err := strconv.Atoi(strings.TrimSpace(string(v)))
						if err != nil || n < 0 {
							p.bad = append(p.bad, string(v))
							k = -2
						} else {
							k = n
						}
					}
				}
				k = max(k, -1)
				if tt == html.SelfClosingTagToken {
					continue
				}
				tables = append(tables, k)
				cur = nil
				if k >= 0 {
					pt := p.parts[k]
					if pt == nil {
						pt = &streamPart{}
						p.parts[k] = pt
					}
					if pt.count++; pt.count == 1 {
						cur = pt
					}
				}
				row, inCell = nil, false
			case "tr":
				inPart := len(tables) > 0 && tables[len(tables)-1] >= 0
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
				if !inPart {
					if isRow {
						p.outside++
					}
					continue
				}
				if cur != nil {
					cur.rows = append(cur.rows, streamRow{dataID: id, cells: make([]string, 0, 2)})
					row = &cur.rows[len(cur.rows)-1]
				}
				inCell = false
			case "td", "th":
				if row != nil {
					row.cells = append(row.cells, "")
					inCell = true
				}
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			switch string(name) {
			case "table":
				if len(tables) == 0 {
					continue
				}
				k := tables[len(tables)-1]
				tables = tables[:len(tables)-1]
				if k >= 0 && p.parts[k].count == 1 && p.parts[k].end == 0 {
					p.parts[k].end = off
				}
				cur, row, inCell = nil, nil, false
			case "tr":
				row, inCell = nil, false
			case "td", "th":
				inCell = false
			}
		case html.TextToken:
			if inCell && row != nil {
				if c := &row.cells[len(row.cells)-1]; *c == "" {
					*c = string(z.Text())
				} else {
					*c += string(z.Text())
				}
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
// returns the page's part tables, for the parts' arrival.
func checkStream(r *Result, body []byte, world World, rows, parts int, most model.Verdict) streamPage {
	if ends, ok := streamFast(body, world, rows, parts); ok {
		p := streamPage{parts: make(map[int]*streamPart, parts)}
		for k, end := range ends {
			p.parts[k] = &streamPart{count: 1, end: end}
		}
		return p
	}
	p := scanStream(body)
	if len(body) == 0 {
		r.addCapped(model.Fail, most, "empty body (stream rules)")
		return p
	}
	for _, v := range p.bad {
		r.addCapped(model.Fail, most, "data-part %q is not a part index 0..%d (stream rules)", v, parts-1)
	}
	if p.outside > 0 {
		r.addCapped(model.Fail, most, "%d rows outside a part table (stream rules: every row in its part's <table class=\"part\" data-part=\"k\">)", p.outside)
	}
	for k, pt := range p.parts {
		if k >= parts {
			r.addCapped(model.Fail, most, "part %d: not a part of %d (want parts 0..%d, each once)", k, parts, parts-1)
		} else if pt.count > 1 {
			r.addCapped(model.Fail, most, "part %d: %d tables, want 1 (want parts 0..%d, each once)", k, pt.count, parts-1)
		}
	}
	wrong := 0
	for k := range parts {
		pt := p.parts[k]
		lo, hi := partRange(k, rows, parts)
		if pt == nil {
			r.addCapped(model.Fail, most, "part %d missing: rows %d..%d not sent (want parts 0..%d, each once)", k, lo, hi, parts-1)
			continue
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
