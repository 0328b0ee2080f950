package model

import "slices"

// TestType is one of the six TechEmpower test types or page. It decides the
// request's Accept header, the verification rule and how a path's {n} is
// filled.
type TestType string

// The six TFB test types (docs/tfb-rules.md) and page, the SSR page of N
// World rows (docs/ssr.md).
const (
	JSON      TestType = "json"
	Plaintext TestType = "plaintext"
	DB        TestType = "db"
	Queries   TestType = "queries"
	Fortunes  TestType = "fortunes"
	Updates   TestType = "updates"
	Page      TestType = "page"
	// Stream is the streamed page: N World rows in K parts, a shell flushed
	// first and each part as its own query resolves (docs/ssr.md).
	Stream TestType = "stream"
	// Coldstart measures fresh starts of a server: spawn to accepting, its
	// first requests and its warm-up under load (docs/ssr.md).
	Coldstart TestType = "coldstart"
)

// Types lists the test types: TFB's six in its canonical order, then page,
// then the issue-36 additions (stream, coldstart).
var Types = []TestType{JSON, Plaintext, DB, Queries, Fortunes, Updates, Page, Stream, Coldstart}

// Valid reports whether t is one of the test types.
func (t TestType) Valid() bool { return slices.Contains(Types, t) }

// TakesN reports whether the test type is parameterised by a row count N
// (queries and updates: "?queries={n}"; page and stream: "?rows={n}").
func (t TestType) TakesN() bool { return t == Queries || t == Updates || t == Page || t == Stream }

// IsPage reports whether the test type is an SSR page of N World rows (page
// or stream): rows, probe and rate apply as docs/ssr.md describes.
func (t TestType) IsPage() bool { return t == Page || t == Stream }

// Accept is the Accept header TFB's toolset sends for the test type: the
// json-like tests ask for JSON, plaintext for text, fortunes for HTML.
func (t TestType) Accept() string {
	switch t {
	case Plaintext:
		return "text/plain,text/html;q=0.9,application/xhtml+xml;q=0.9,application/xml;q=0.8,*/*;q=0.7"
	case Fortunes, Page, Stream, Coldstart:
		return "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
	default:
		return "application/json,text/html;q=0.9,application/xhtml+xml;q=0.9,application/xml;q=0.8,*/*;q=0.7"
	}
}
