package verify

import (
	"bytes"
	"strconv"

	"golang.org/x/net/html"
)

// Under load every response is checked, 10,000-row pages (1–2 MB) too, so
// the page rule has a fast path that allocates nothing: a scanner that
// reads markup as the HTML tokenizer does finds the first <table> start tag
// (scanTableStart; the tokenizer itself when unsure), and a byte scanner
// reads the table in the form every adapter sends (explicit end tags,
// attributes, white space, <thead>/<tbody>, comments such as hydration
// markers, plain decimal text). Anything else, and any wrong row, makes the
// fast path unsure, and pageTable decides.

// pageFast reports whether body's first <table>, in the usual form, holds
// exactly rows rows (≤ 0: 1..10000) with ids 1..rows and world's values
// (world nil: ids only); false means "not sure", never "wrong".
func pageFast(body []byte, world World, rows int) bool {
	off, ok := firstTableStart(body)
	return ok && fastTable(body[off:], world, rows)
}

// firstTableStart returns the offset just past body's first <table> start
// tag as the HTML tokenizer reads it (not in a script, comment or
// attribute); a self-closing <table/> is not handled. The markup before the
// table is read without allocating (scanTableStart), by the tokenizer
// itself when that is unsure.
func firstTableStart(body []byte) (int, bool) {
	if off, found, sure := scanTableStart(body); sure {
		return off, found
	}
	return tokenTableStart(body)
}

// tokenTableStart is firstTableStart with the HTML tokenizer.
func tokenTableStart(body []byte) (int, bool) {
	z := html.NewTokenizer(bytes.NewReader(body))
	off := 0
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return 0, false
		}
		off += len(z.Raw())
		if tt == html.StartTagToken || tt == html.SelfClosingTagToken {
			if name, _ := z.TagName(); string(name) == "table" {
				return off, tt == html.StartTagToken
			}
		}
	}
}

// fastTable reads the table's content b (after its start tag) up to its end
// tag and reports whether it is exactly the expected rows.
func fastTable(b []byte, world World, rows int) bool {
	row := 0 // data rows seen
	limit := rows
	if rows <= 0 {
		limit = maxPageRows
	}
	var cell [2][]byte
	cells := 0
	inRow, header := false, false
	var inCell byte // 0, or 'd' in a <td>, 'h' in a <th>
	var num [20]byte
	for i := 0; i < len(b); {
		if b[i] != '<' {
			j := bytes.IndexByte(b[i:], '<')
			if j < 0 {
				return false
			}
			text := b[i : i+j]
			i += j
			switch {
			case inCell == 'd':
				if bytes.IndexByte(text, '&') >= 0 || cells > 2 {
					return false
				}
				if cell[cells-1] != nil { // a second text run: a tag was skipped
					return false
				}
				cell[cells-1] = text
			case inCell == 'h':
			case !isBlank(text):
				return false
			}
			continue
		}
		if bytes.HasPrefix(b[i:], commentOpen) {
			n := commentLen(b[i:])
			if n == 0 {
				return false
			}
			i += n
			continue
		}
		n, name, closing := scanTag(b[i:])
		if n == 0 {
			return false
		}
		i += n
		switch {
		case (name == "thead" || name == "tbody") && !inRow:
		case name == "tr" && !closing && !inRow:
			inRow, header, cells = true, false, 0
		case (name == "td" || name == "th") && !closing && inRow && inCell == 0:
			inCell = name[1]
			if name == "th" {
				header = true
				continue
			}
			if cells++; cells <= 2 {
				cell[cells-1] = nil
			}
		case (name == "td" || name == "th") && closing && inCell == name[1]:
			inCell = 0
		case name == "tr" && closing && inRow && inCell == 0:
			inRow = false
			if header {
				continue
			}
			row++
			if row > limit || cells != 2 || !bytes.Equal(trimBlank(cell[0]), strconv.AppendInt(num[:0], int64(row), 10)) {
				return false
			}
			if world != nil && (row > len(world) || !bytes.Equal(trimBlank(cell[1]), strconv.AppendInt(num[:0], world[row-1], 10))) {
				return false
			}
		case name == "table" && closing && !inRow:
			return row >= 1 && (row == rows || rows <= 0)
		default:
			return false
		}
	}
	return false
}

// commentOpen starts an HTML comment.
var commentOpen = []byte("<!--")

// commentLen returns the length of the plain comment at the start of b
// ("<!--" to the first "-->", like hydration markers), or 0 for one the HTML
// tokenizer may end elsewhere ("<!-->", "--!>") or that is not closed.
func commentLen(b []byte) int {
	body := b[len(commentOpen):]
	if bytes.HasPrefix(body, []byte(">")) || bytes.HasPrefix(body, []byte("->")) {
		return 0
	}
	end := bytes.Index(body, []byte("-->"))
	if end < 0 || bytes.Contains(body[:end+2], []byte("--!")) {
		return 0
	}
	return len(commentOpen) + end + 3
}

// scanTag reads a table tag (table, thead, tbody, tr, th, td, any case,
// plainly quoted attributes) at the start of b, returning its length (0 for
// anything else), lowercased name and whether it is an end tag.
func scanTag(b []byte) (n int, name string, closing bool) {
	j := 1
	if j < len(b) && b[j] == '/' {
		closing = true
		j++
	}
	var low [5]byte
	k := 0
	for ; j < len(b) && isLetter(b[j]); j++ {
		if k == len(low) {
			return 0, "", false
		}
		low[k] = lowerASCII(b[j])
		k++
	}
	switch string(low[:k]) { // a switch on a conversion does not allocate
	case "table":
		name = "table"
	case "thead":
		name = "thead"
	case "tbody":
		name = "tbody"
	case "tr":
		name = "tr"
	case "td":
		name = "td"
	case "th":
		name = "th"
	default:
		return 0, "", false
	}
	if j < len(b) && b[j] != '>' && !isSpaceByte(b[j]) {
		return 0, "", false // "<td1>", "<td=x>": another name
	}
	for j < len(b) {
		for j < len(b) && !tagStop[b[j]] {
			j++
		}
		if j == len(b) {
			break
		}
		switch c := b[j]; {
		case c == '>':
			return j + 1, name, closing
		case c == '"' || c == '\'' || c == '<' || c == '/':
			return 0, "", false
		case c == '=':
			j++
			for j < len(b) && isSpaceByte(b[j]) {
				j++
			}
			if j < len(b) && (b[j] == '"' || b[j] == '\'') {
				end := bytes.IndexByte(b[j+1:], b[j])
				if end < 0 {
					return 0, "", false
				}
				j += end + 2
			}
		default:
			j++
		}
	}
	return 0, "", false
}

// tagStop marks the bytes scanTag's attribute loop stops at.
var tagStop = [256]bool{'>': true, '"': true, '\'': true, '<': true, '/': true, '=': true}

// isSpaceByte reports whether c is HTML white space.
func isSpaceByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
}

// isBlank reports whether b is only HTML white space.
func isBlank(b []byte) bool {
	for _, c := range b {
		if !isSpaceByte(c) {
			return false
		}
	}
	return true
}

// trimBlank trims HTML white space from both ends of b.
func trimBlank(b []byte) []byte {
	for len(b) > 0 && isSpaceByte(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSpaceByte(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}
