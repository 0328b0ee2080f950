package compare

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/internal/golden"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/results"
)

// abEquivalenceFixture: an ab run of go-stdlib against a slowed copy with
// byte-equivalence verdicts: json identical, fortunes different (an excerpt
// with quotes, a backtick and Japanese text), page not compared.
func abEquivalenceFixture(t *testing.T) *Table {
	t.Helper()
	f := file("ab", hostA,
		series{fw: "go-stdlib", variant: "default@base", test: "json", rps: seq(50000, 5)},
		series{fw: "go-stdlib", variant: "default@new", test: "json", rps: seq(4000, 5)})
	f.Equivalence = []results.Equivalence{
		{Test: "json", Path: "/json", Identical: true, Offset: -1, Masks: 0},
		{Test: "fortunes", Path: "/fortunes", Offset: 69, Base: "<title>Fortunes</title></head><body><table><tr><th>id</th><th>me", New: "<title>Fortunes</title></head><body><table class=\"f`\"><tr><td>フ</td>", Masks: 2},
		{Test: "page", Path: "/ssr?rows=10000", Offset: -1, Error: "new: GET http://127.0.0.1:4000/ssr?rows=10000: connection refused"},
	}
	tab, err := Variants(f, model.ID{Framework: "go-stdlib", Variant: "default@base"}, model.ID{Framework: "go-stdlib", Variant: "default@new"}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

func TestCompareMarkdownEquivalence(t *testing.T) {
	tab := abEquivalenceFixture(t)
	var buf bytes.Buffer
	if err := Markdown(&buf, tab); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "ab-equivalence.md", buf.String())

	tab.Equivalence = tab.Equivalence[:1]
	buf.Reset()
	if err := Markdown(&buf, tab); err != nil {
		t.Fatal(err)
	}
	if want := "\nByte-equivalence: all 1 tests identical (pages fetched from both sides before measuring, compared byte for byte after masking per-request and per-build values).\n\n- json `/json`: identical (0 masks applied)\n\nVerdicts:"; !strings.Contains(buf.String(), want) {
		t.Errorf("all identical: markdown lacks %q:\n%s", want, buf.String())
	}
}

// TestCompareNoEquivalence: a table without verdicts (tfbench compare of
// two runs, or an ab run before this check) shows and encodes nothing new.
func TestCompareNoEquivalence(t *testing.T) {
	tab := formatFixture(t)
	var md, js bytes.Buffer
	if err := Markdown(&md, tab); err != nil {
		t.Fatal(err)
	}
	if err := JSON(&js, tab); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(md.String(), "quivalence") || strings.Contains(js.String(), "equivalence") {
		t.Errorf("equivalence shown without verdicts:\n%s\n%s", md.String(), js.String())
	}
}

func TestCompareJSONEquivalence(t *testing.T) {
	tab := abEquivalenceFixture(t)
	var buf bytes.Buffer
	if err := JSON(&buf, tab); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Equivalence []results.Equivalence `json:"equivalence"`
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Equivalence, tab.Equivalence) || len(got.Equivalence) != 3 {
		t.Errorf("equivalence %+v", got.Equivalence)
	}
	if !strings.Contains(buf.String(), `"test": "fortunes",`+"\n"+`   "path": "/fortunes",`+"\n"+`   "identical": false,`+"\n"+`   "offset": 69,`) {
		t.Errorf("JSON:\n%s", buf.String())
	}
}

func TestCodeSpan(t *testing.T) {
	for in, want := range map[string]string{
		`"<p>"`:  "`\"<p>\"`",
		"a`b":    "``a`b``",
		"`a``":   "``` `a`` ```",
		"x ``` ": "````x ``` ````",
	} {
		if got := codeSpan(in); got != want {
			t.Errorf("codeSpan(%q) = %q, want %q", in, got, want)
		}
	}
}
