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
	// Coldstart measures fresh starts of a server: spawn to accepting, its
	// first requests and its warm-up under load (docs/ssr.md).
	Coldstart TestType = "coldstart"
)

// Types lists the test types: TFB's six in its canonical order, then page,
// then coldstart.
var Types = []TestType{JSON, Plaintext, DB, Queries, Fortunes, Updates, Page,
	Coldstart,
}

// Valid reports whether t is one of the test types.
func (t TestType) Valid() bool { return slices.Contains(Types, t) }

// TakesN reports whether the test type is parameterised by a row count N
// (queries and updates: "?queries={n}"; page: "?rows={n}").
func (t TestType) TakesN() bool { return t == Queries || t == Updates || t == Page }

// Accept is the Accept header TFB's toolset sends for the test type: the
// json-like tests ask for JSON, plaintext for text, fortunes for HTML.
func (t TestType) Accept() string {
	switch t {
	case Plaintext:
		return "text/plain,text/html;q=0.9,application/xhtml+xml;q=0.9,application/xml;q=0.8,*/*;q=0.7"
	case Fortunes, Page, Coldstart:
		return "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
	default:
		return "application/json,text/html;q=0.9,application/xhtml+xml;q=0.9,application/xml;q=0.8,*/*;q=0.7"
	}
}
