package verify

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tfbench/tfbench/harness/model"
)

// Under load every response is checked (load.Options.Check), so the check
// is fitted per test type: a fast path that compares without allocating
// passes the usual response, and anything else goes to verification's full
// rule, which passes a legitimately different body and words a wrong one
// (docs/verification.md, Under load).

// LoadRef is what a check under load compares every response with.
type LoadRef struct {
	Type model.TestType
	// Rows is the number of rows expected: ExpectedRows or ExpectedPageRows
	// of the shot's value (≤ 0: any, 1..500 or 1..10000); db, json,
	// plaintext and fortunes ignore it.
	Rows int
	// Body, for json, plaintext and fortunes, is a body that passed the
	// full rule just before the sample: a response equal to it byte for
	// byte passes at once. Nil: no fast path. LoadChecker keeps a copy, and
	// ignores a body the full rule fails.
	Body []byte
	// World, for db, queries and page, is the server's World read before
	// the sample (ReadWorld, WorldOf): every row's randomNumber must be
	// World's for its id. Nil: ids and ranges only. LoadChecker keeps a
	// copy.
	World World
}

// LoadChecker returns the check applied under load to every response
// (load.Options.Check) for ref, whose head is the response's header lines
// (each ended by "\r\n") and body its decoded body, neither kept:
//
//   - every type: status 200; Server, Date and Content-Type present, the
//     Content-Type as verification's rule for the type;
//   - json, plaintext, fortunes: the body equal to ref.Body, else the full
//     body rule decides (fortunes: the table compared with the expected
//     fortunes);
//   - db, queries: each row's id in 1..10000 and its randomNumber World's
//     (ref.World nil: in 1..10000), ref.Rows rows (db: one object);
//   - updates: ref.Rows rows, ids and randomNumbers in 1..10000;
//   - page: the page rule against ref.World (PageResponse's body rule).
//
// Only a fail is an error; it says what was expected and what came. The
// check is safe for concurrent use and allocates nothing on a response that
// takes the fast path.
func LoadChecker(ref LoadRef) func(status int, head, body []byte) error {
	ref.World = slices.Clone(ref.World)
	if len(ref.Body) > 0 {
		r := pass()
		checkBody(&r, ref.Type, ref.Rows, model.Fail, ref.Body)
		if r.Status == model.Fail {
			ref.Body = nil
		} else {
			ref.Body = bytes.Clone(ref.Body)
		}
	}
	c := &loadCheck{ref: ref}
	c.ctBase, c.ctCharset = contentTypeRule(ref.Type)
	return c.check
}

// loadCheck is LoadChecker's check; read-only once built.
type loadCheck struct {
	ref       LoadRef
	ctBase    string // the Content-Type rule (contentTypeRule)
	ctCharset bool
}

// check is the check of one response.
func (c *loadCheck) check(status int, head, body []byte) error {
	if status != http.StatusOK {
		if len(body) == 0 {
			return fmt.Errorf("status %d, want 200", status)
		}
		return fmt.Errorf("status %d, want 200 (body %s)", status, clip(body, clipBytes))
	}
	if err := c.headers(head); err != nil {
		return err
	}
	ref := &c.ref
	switch ref.Type {
	case model.JSON, model.Plaintext, model.Fortunes:
		if len(ref.Body) > 0 && bytes.Equal(body, ref.Body) {
			return nil
		}
		return c.fullBody(body)
	case model.DB, model.Queries:
		if scanWorldRows(body, ref.World, ref.Type == model.DB, ref.Rows) {
			return nil
		}
		return c.worldBody(body, ref.World)
	case model.Updates:
		if scanWorldRows(body, nil, false, ref.Rows) {
			return nil
		}
		return c.worldBody(body, nil)
	case model.Page:
		if pageFast(body, ref.World, ref.Rows) {
			return nil
		}
		r := pass()
		checkPage(&r, body, ref.World, ref.Rows, model.Fail)
		return failure(r)
	}
	return fmt.Errorf("unknown test type %q (want one of %v)", ref.Type, model.Types)
}

// headers checks that Server, Date and Content-Type are present and the
// Content-Type meets the type's rule (repeated, the values joined as
// verification joins them).
func (c *loadCheck) headers(head []byte) error {
	var server, date bool
	var ct []byte
	cts := 0
	for rest := head; len(rest) > 0; {
		var line []byte
		line, rest = nextLine(rest)
		colon := bytes.IndexByte(line, ':')
		if colon <= 0 {
			continue
		}
		switch name := line[:colon]; {
		case equalFoldASCII(name, "Server"):
			server = true
		case equalFoldASCII(name, "Date"):
			date = true
		case equalFoldASCII(name, "Content-Type"):
			if cts == 0 {
				ct = trimOWS(line[colon+1:])
			}
			cts++
		}
	}
	if !server || !date || cts == 0 {
		var missing []string
		for _, h := range [...]struct {
			name    string
			present bool
		}{{"Server", server}, {"Date", date}, {"Content-Type", cts > 0}} {
			if !h.present {
				missing = append(missing, "header "+h.name+" missing")
			}
		}
		return errors.New(strings.Join(missing, "; "))
	}
	if cts > 1 {
		var all []string
		for v, rest, ok := nextHeader(head, "Content-Type"); ok; v, rest, ok = nextHeader(rest, "Content-Type") {
			all = append(all, string(v))
		}
		if v := joinValues(all); !contentTypeOK(v, c.ctBase, c.ctCharset) {
			return fmt.Errorf("header Content-Type %q, want %s", v, contentTypeWant(c.ctBase, c.ctCharset))
		}
		return nil
	}
	if !contentTypeOK(ct, c.ctBase, c.ctCharset) {
		return fmt.Errorf("header Content-Type %q, want %s", ct, contentTypeWant(c.ctBase, c.ctCharset))
	}
	return nil
}

// fullBody is the slow path of json, plaintext and fortunes: the full body
// rule; a fail also shows how the body differs from ref.Body.
func (c *loadCheck) fullBody(body []byte) error {
	r := pass()
	checkBody(&r, c.ref.Type, c.ref.Rows, model.Fail, body)
	if r.Status != model.Fail {
		return nil
	}
	msg := strings.Join(r.Reasons, "; ")
	if len(c.ref.Body) > 0 {
		msg = bodyDiff(c.ref.Body, body) + "; " + msg
	}
	return errors.New(msg)
}

// worldBody is the slow path of db, queries and updates: the full body rule
// (shape, row count), then every row's values: id and randomNumber integers
// in 1..10000, and the randomNumber world's (nil: any).
func (c *loadCheck) worldBody(body []byte, world World) error {
	r := pass()
	checkBody(&r, c.ref.Type, c.ref.Rows, model.Fail, body)
	if r.Status == model.Fail {
		return failure(r)
	}
	v, err := decodeJSON(body)
	if err != nil { // the full rule passed it: not reached
		return fmt.Errorf("invalid JSON: %v", err)
	}
	rows, numbered := []any{v}, false
	if list, ok := v.([]any); ok {
		rows, numbered = list, true
		if c.ref.Type == model.DB { // an array is a warn for db, its first object checked
			rows, numbered = list[:1], false
		}
	}
	var reasons []string
	wrong := 0
	for i, row := range rows {
		p := worldRowProblem(row, world)
		if p == "" {
			continue
		}
		if wrong++; wrong <= maxRowReasons {
			if numbered {
				p = "row " + strconv.Itoa(i+1) + ": " + p
			}
			reasons = append(reasons, p)
		}
	}
	if wrong > maxRowReasons {
		reasons = append(reasons, fmt.Sprintf("and %d more rows wrong", wrong-maxRowReasons))
	}
	if len(reasons) == 0 {
		return nil
	}
	return errors.New(strings.Join(reasons, "; "))
}

// worldRowProblem words what is wrong with the values of one decoded World
// object, or returns "" (also for a row the full rule already judged).
func worldRowProblem(row any, world World) string {
	obj, ok := row.(map[string]any)
	if !ok {
		return ""
	}
	idKey, hasID := findKey(obj, "id")
	rnKey, hasRN := findKey(obj, "randomNumber")
	if !hasID || !hasRN {
		return ""
	}
	id, idOK := worldInt(obj[idKey])
	rn, rnOK := worldInt(obj[rnKey])
	switch {
	case !idOK:
		return fmt.Sprintf("id %s, want an integer in 1..10000", short(obj[idKey]))
	case !rnOK:
		return fmt.Sprintf("id %d randomNumber %s, want an integer in 1..10000", id, short(obj[rnKey]))
	case world != nil && id > int64(len(world)):
		return fmt.Sprintf("id %d is not in World (%d rows)", id, len(world))
	case world != nil && world[id-1] != rn:
		return fmt.Sprintf("id %d randomNumber %d, want %d (World)", id, rn, world[id-1])
	}
	return ""
}

// worldInt returns a decoded World value (a number, or a number as a string
// as TFB accepts it) as an integer in 1..10000, and whether it is one.
func worldInt(v any) (int64, bool) {
	var n int64
	switch x := v.(type) {
	case json.Number:
		i, err := strconv.ParseInt(string(x), 10, 64)
		if err != nil {
			f, err := strconv.ParseFloat(string(x), 64)
			if err != nil || f != math.Trunc(f) || f < 1 || f > worldMax {
				return 0, false
			}
			i = int64(f)
		}
		n = i
	case string:
		i, err := strconv.Atoi(strings.TrimSpace(x))
		if err != nil {
			return 0, false
		}
		n = int64(i)
	default:
		return 0, false
	}
	return n, n >= 1 && n <= worldMax
}

// failure returns r's reasons as an error if r fails, else nil.
func failure(r Result) error {
	if r.Status != model.Fail {
		return nil
	}
	return errors.New(strings.Join(r.Reasons, "; "))
}

// clipBytes is about how much of a body a message quotes.
const clipBytes = 80

// bodyDiff words how got differs from want, the body verified: both
// quoted when short, else where they first differ with some context.
func bodyDiff(want, got []byte) string {
	if len(want) <= clipBytes && len(got) <= clipBytes {
		return fmt.Sprintf("body: want %q (%d bytes, as verified), got %q", want, len(want), got)
	}
	i := 0
	for i < len(want) && i < len(got) && want[i] == got[i] {
		i++
	}
	return fmt.Sprintf("body (%d bytes; %d as verified): first difference at byte %d: want %s, got %s",
		len(got), len(want), i, around(want, i), around(got, i))
}

// around quotes b near offset i: from 24 bytes before to 40 after, on rune
// boundaries, "…" marking a cut.
func around(b []byte, i int) string {
	start, end := max(0, i-24), min(len(b), i+40)
	for start < end && !utf8.RuneStart(b[start]) {
		start++
	}
	for end > start && end < len(b) && !utf8.RuneStart(b[end]) {
		end--
	}
	s := strconv.Quote(string(b[start:end]))
	if start > 0 {
		s = "…" + s
	}
	if end < len(b) {
		s += "…"
	}
	return s
}

// clip quotes at most about n bytes of b, "…" marking a cut.
func clip(b []byte, n int) string {
	if len(b) <= n {
		return strconv.Quote(string(b))
	}
	end := n
	for end > 0 && !utf8.RuneStart(b[end]) {
		end--
	}
	return strconv.Quote(string(b[:end])) + "…"
}
