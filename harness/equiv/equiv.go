// Package equiv compares two variants' responses byte for byte after
// masking what changes per request or per build (ids, build hashes, hashed
// asset names): tfbench ab's byte-equivalence check (docs/ssr.md,
// Byte-equivalence in A/B runs), no I/O.
package equiv

import (
	"bytes"
	"fmt"
	"regexp"
	"unicode/utf8"
)

// Placeholder replaces every match of a mask, on both sides, before the
// bytes are compared.
const Placeholder = "«masked»"

// Context is how many bytes an excerpt holds on each side of the first
// difference (widened to whole UTF-8 characters, cut at the page's ends).
const Context = 40

// Mask is one default mask: a short name (docs, tests) and its regular
// expression (Go RE2), matched against the whole body.
type Mask struct {
	Name string
	RE   *regexp.Regexp
}

// useIDTail is a React useId value after its R (server), r (client) or S
// (Flight) letter: a base-32 id, optionally "H" + a base-32 index
// (ReactFizzConfigDOM makeId); only the default empty identifierPrefix.
const useIDTail = `[RrS][0-9a-v]+(?:H[0-9a-v]+)?`

// Defaults are the masks Compare always applies, in this order, before the
// adapters' own (framework.yaml `masks:`). Each names what it masks; their
// tests (equiv_test.go) show what each must leave alone: the page's data.
var Defaults = []Mask{
	// An RFC 4122 / 9562 UUID in its 8-4-4-4-12 hex form, any case, as a
	// whole word: the per-request ids of "...-react-component-<uuid>".
	{"uuid", regexp.MustCompile(`(?i)\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`)},
	// React 18.0 to 19.0 useId: ":R1b:", ":r0:", ":S1:" (PR #23360).
	{"react-useid-colon", regexp.MustCompile(`:` + useIDTail + `:`)},
	// React 19.1 useId: "«R1b»", "«r0»" (PR #32001, valid in CSS selectors).
	{"react-useid-guillemet", regexp.MustCompile(`«` + useIDTail + `»`)},
	// React 19.2 and later (19.3 unchanged): "_R_1b_", "_R_0H1_", "_r_0_"
	// (PR #33422; react-dom 19.3 makeId: "_" + prefix + "R_" + treeId
	// [+ "H" + n] + "_").
	{"react-useid-underscore", regexp.MustCompile(`_[RrS]_[0-9a-v]+(?:H[0-9a-v]+)?_`)},
	// Next.js build id in the RSC payload, `"b":"<buildId>"` (App Router)
	// or `"buildId":"<buildId>"` (Pages Router's __NEXT_DATA__), also with
	// the backslash-escaped quotes the payload has inside its inline
	// <script> strings. The whole key and value are masked.
	{"next-build-id", regexp.MustCompile(`\\*"(?:b|buildId)\\*":\\*"[A-Za-z0-9_-]+\\*"`)},
	// A Next.js build id as a path segment, /_next/static/<buildId>/
	// (_buildManifest.js, _ssgManifest.js): 10 or more base64url
	// characters, so /_next/static/chunks/, css/ and media/ stay.
	{"next-static-build-path", regexp.MustCompile(`/_next/static/[A-Za-z0-9_-]{10,}/`)},
	// A hashed asset name's hash: "-" or "." then 8 or more base64url
	// characters before .js, .mjs or .css ("page-4f1d2c3b5a6e7f80.js",
	// "entry.client-DkIb3Qx2.js", "index.Bk3x9aZz.css"). The match starts
	// at the first "-" or "." from which such a run reaches the extension
	// ("entry«masked»"); a plain name segment of 8+ characters
	// ("-component.js") is masked too.
	{"hashed-asset", regexp.MustCompile(`[-.][A-Za-z0-9_-]{8,}\.(?:m?js|css)\b`)},
}

// RandomRows masks "id" and "randomNumber" values (any case) in a JSON body:
// db, queries and updates return random World rows by the TFB rules, so ab
// compares only their shape there, and never masks a page with it.
var RandomRows = regexp.MustCompile(`(?i)"(?:id|randomnumber)"\s*:\s*-?[0-9]+`)

// Verdict is the comparison of two masked bodies: unless Identical, Offset
// is the first differing byte (the shorter length when one is a prefix) and
// Base and New each side's excerpt around it. Masks counts the base's matches.
type Verdict struct {
	Identical bool
	Offset    int
	Base, New string
	Masks     int
}

// String is the verdict as tfbench ab prints it: "identical (2 masks
// applied)" or `differs at byte 1234: base "…" new "…"` (excerpts quoted
// with %q, so control bytes and invalid UTF-8 are escaped).
func (v Verdict) String() string {
	if v.Identical {
		return fmt.Sprintf("identical (%d masks applied)", v.Masks)
	}
	return fmt.Sprintf("differs at byte %d: base %q new %q", v.Offset, v.Base, v.New)
}

// Compare masks base and new with Defaults and then masks (in order, each
// match replaced by Placeholder) and compares the results byte for byte.
// Offset is -1 when they are identical.
func Compare(base, new []byte, masks []*regexp.Regexp) Verdict {
	all := make([]*regexp.Regexp, 0, len(Defaults)+len(masks))
	for _, m := range Defaults {
		all = append(all, m.RE)
	}
	all = append(all, masks...)
	b, n := Apply(base, all)
	nw, _ := Apply(new, all)
	k := firstDiff(b, nw)
	if k < 0 {
		return Verdict{Identical: true, Offset: -1, Masks: n}
	}
	return Verdict{Offset: k, Base: excerpt(b, k), New: excerpt(nw, k), Masks: n}
}

// Apply replaces every match of each of masks in body, in order, by
// Placeholder, and returns the masked body and the number of matches
// replaced. body is not modified.
func Apply(body []byte, masks []*regexp.Regexp) ([]byte, int) {
	n := 0
	for _, re := range masks {
		locs := re.FindAllIndex(body, -1)
		if len(locs) == 0 {
			continue
		}
		n += len(locs)
		var out bytes.Buffer
		out.Grow(len(body))
		last := 0
		for _, l := range locs {
			out.Write(body[last:l[0]])
			out.WriteString(Placeholder)
			last = l[1]
		}
		out.Write(body[last:])
		body = out.Bytes()
	}
	return body, n
}

// firstDiff is the index of the first byte where a and b differ, the
// shorter length when one is a prefix of the other, or -1 when they are
// equal.
func firstDiff(a, b []byte) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) == len(b) {
		return -1
	}
	return n
}

// excerpt is b from k−Context to k+Context, cut at b's ends and widened
// to whole UTF-8 characters (at most 3 bytes each way).
func excerpt(b []byte, k int) string {
	from, to := max(0, min(k, len(b))-Context), min(len(b), k+Context)
	for i := 0; from > 0 && !utf8.RuneStart(b[from]) && i < utf8.UTFMax-1; i++ {
		from--
	}
	for i := 0; to < len(b) && !utf8.RuneStart(b[to]) && i < utf8.UTFMax-1; i++ {
		to++
	}
	return string(b[from:to])
}
