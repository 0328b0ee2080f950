package verify

import (
	"bytes"
	"strconv"
)

// streamRaw are the elements whose text the HTML tokenizer reads raw (or
// skips), and a comment (a title's text is skipped to its end tag): a page holding any of them goes to the full stream
// rule, so the fast path never reads a table inside a script as a part.
var streamRaw = []string{"script", "style", "!--", "textarea", "template", "xmp", "iframe", "noembed", "noframes", "noscript", "plaintext"}

// streamTags counts body's <table and <tr tags in one pass over its '<'
// bytes, and reports whether a raw-text element or a comment starts in it
// (tag names compared without case).
func streamTags(body []byte) (tables, trs int, raw bool) {
	for i := 0; ; {
		j := bytes.IndexByte(body[i:], '<')
		if j < 0 {
			return tables, trs, false
		}
		i += j + 1
		rest := body[i:]
		switch {
		case prefixFold(rest, "table"):
			tables++
		case prefixFold(rest, "tr") && (len(rest) == 2 || rest[2] == ' ' || rest[2] == '>'):
			trs++
		case prefixFold(rest, "title"): // RCDATA: skip its text to </title>
			e := bytes.Index(rest, []byte("</title>"))
			if e < 0 {
				return tables, trs, true
			}
			i += e
		default:
			for _, r := range streamRaw {
				if prefixFold(rest, r) {
					return tables, trs, true
				}
			}
		}
	}
}

// prefixFold reports whether b starts with lower, ASCII case ignored.
func prefixFold(b []byte, lower string) bool {
	return len(b) >= len(lower) && equalFoldASCII(b[:len(lower)], lower)
}

// streamFast passes a stream page in the contract's exact markup (the Go and
// Node references' form) without building anything: K part tables, each
// `<table class="part" data-part="k"><tbody>` then its rows as
// `<tr class="row" data-id="ID"><td class="id">ID</td><td class="num">NUM</td></tr>`
// in id order with World's NUM, then `</tbody></table>`; no other table or
// row; no raw-text element. It returns each part's end offset (just past its last
// row's </tr>), or false for anything else, which the full rule (checkStream)
// then decides.
func streamFast(body []byte, world World, rows, parts int) ([]int, bool) {
	if tables, trs, raw := streamTags(body); raw || tables != parts || trs != rows {
		return nil, false
	}
	ends := make([]int, parts)
	var num [24]byte
	pos := 0
	for range parts {
		i := bytes.Index(body[pos:], []byte(`<table class="part" data-part="`))
		if i < 0 {
			return nil, false
		}
		pos += i + len(`<table class="part" data-part="`)
		j := bytes.IndexByte(body[pos:], '"')
		if j < 1 || j > 2 {
			return nil, false
		}
		k, err := strconv.Atoi(string(body[pos : pos+j]))
		if err != nil || k < 0 || k >= parts || ends[k] != 0 || body[pos] == '0' && j > 1 {
			return nil, false
		}
		pos += j
		if !bytes.HasPrefix(body[pos:], []byte(`"><tbody>`)) {
			return nil, false
		}
		pos += len(`"><tbody>`)
		lo, hi := partRange(k, rows, parts)
		for id := lo; id <= hi; id++ {
			if id > len(world) && world != nil {
				return nil, false
			}
			ids := strconv.AppendInt(num[:0], int64(id), 10)
			for _, lit := range [][]byte{[]byte(`<tr class="row" data-id="`), ids, []byte(`"><td class="id">`), ids, []byte(`</td><td class="num">`)} {
				if !bytes.HasPrefix(body[pos:], lit) {
					return nil, false
				}
				pos += len(lit)
			}
			if world != nil {
				n := strconv.AppendInt(num[:0], world[id-1], 10)
				if !bytes.HasPrefix(body[pos:], n) {
					return nil, false
				}
				pos += len(n)
			} else {
				for pos < len(body) && body[pos] >= '0' && body[pos] <= '9' {
					pos++
				}
			}
			if !bytes.HasPrefix(body[pos:], []byte(`</td></tr>`)) {
				return nil, false
			}
			pos += len(`</td></tr>`)
		}
		if !bytes.HasPrefix(body[pos:], []byte(`</tbody></table>`)) {
			return nil, false
		}
		ends[k] = pos
		pos += len(`</tbody></table>`)
	}
	return ends, true
}
