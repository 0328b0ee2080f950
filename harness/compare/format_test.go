package compare

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/harness/model"
)

// formatFixture: go-stdlib equal on both sides, nextjs json 10% slower in
// new with a saturated generator, nextjs queries with 4 rounds in new.
func formatFixture(t *testing.T) *Table {
	t.Helper()
	b := file("b", hostA, series{fw: "go-stdlib", variant: "default", test: "json", rps: seq(50000, 5), cpu: 0.02},
		series{fw: "nextjs", variant: "default", test: "json", rps: seq(100, 5), cpu: 0.5},
		series{fw: "nextjs", variant: "default", test: "queries", n: 20, rps: seq(100, 5), cpu: 0.5})
	n := file("n", hostA, series{fw: "go-stdlib", variant: "default", test: "json", rps: seq(50000, 5), cpu: 0.02},
		series{fw: "nextjs", variant: "default", test: "json", rps: seq(90, 5), cpu: 0.6, saturated: true},
		series{fw: "nextjs", variant: "default", test: "queries", n: 20, rps: seq(90, 4), cpu: 0.5})
	o := DefaultOptions()
	o.BaseName, o.NewName = "base.json", "new.json"
	tab, err := Sets(one(b), one(n), o)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

func TestCompareMarkdown(t *testing.T) {
	var buf bytes.Buffer
	if err := Markdown(&buf, formatFixture(t)); err != nil {
		t.Fatal(err)
	}
	want := `# tfbench compare: base.json → new.json

- Base: ` + "`base.json`" + `: run b on a (Intel Xeon, 2 logical CPUs, x86_64), 5 rounds
- New: ` + "`new.json`" + `: run n on a (Intel Xeon, 2 logical CPUs, x86_64), 5 rounds
- Method version 2, suite tfb (sha256 d26ace33a1b2)
- Basis rps: per-round RPS at each side's own peak level
- p is from a two-sided Mann-Whitney U test over the per-round RPS (base.json vs new.json); p (Holm) is Holm–Bonferroni-adjusted across this table's 2 tested rows. A row is slower or faster when p (Holm) < α = 0.05 and its median changed by at least 5%; it needs ≥ 5 rounds per side.

Verdicts: 1 slower, 0 faster, 1 same, 1 unknown.

| Framework | Variant | Test    |  N | Base peak RPS | New peak RPS | New/base | Norm. new/base | Base CPU ms/req | New CPU ms/req | Change |      p | p (Holm) | Verdict | Why                                            |
|:----------|:--------|:--------|---:|--------------:|-------------:|---------:|---------------:|----------------:|---------------:|-------:|-------:|---------:|:--------|:-----------------------------------------------|
| go-stdlib | default | json    |    |        50,002 |       50,002 |    1.00× |          1.00× |           0.020 |          0.020 |  +0.0% |      1 |        1 | same    | not significant: p_holm 1 ≥ α 0.05             |
| nextjs    | default | json    |    |           102 |         92.0 |    0.90× |          0.90× |           0.500 |          0.600 |  -9.8% | 0.0079 |    0.016 | slower  | p_holm 0.016 < α 0.05, change -9.8% beyond ±5% |
| nextjs    | default | queries | 20 |           102 |         91.5 |    0.90× |              — |           0.500 |          0.500 | -10.3% |      — |        — | unknown | 4 rounds in new.json, need 5                   |

## Warnings

- nextjs/default json: load generator saturated in new.json (those rounds measured the generator, not the server)

## Notes

- same build on both sides (equal build hashes, the same code measured twice): go-stdlib/default, nextjs/default
`
	if got := buf.String(); got != want {
		t.Errorf("markdown:\n%s\nwant:\n%s", got, want)
	}
}

func TestCompareMarkdownVariantsAndEscape(t *testing.T) {
	f := file("ab", hostA,
		series{fw: "go-stdlib", variant: "default", test: "a|b", rps: seq(50000, 5)},
		series{fw: "go-stdlib", variant: "slow", test: "a|b", rps: seq(4000, 5)})
	tab, err := Variants(f, model.ID{Framework: "go-stdlib", Variant: "default"}, model.ID{Framework: "go-stdlib", Variant: "slow"}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Markdown(&buf, tab); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	for _, want := range []string{
		"# tfbench ab: go-stdlib/default → go-stdlib/slow\n",
		"- Run: run ab on a (Intel Xeon, 2 logical CPUs, x86_64), 5 rounds\n",
		"(go-stdlib/default vs go-stdlib/slow)",
		"| Test | N | Base peak RPS |",
		`| a\|b |   |        50,002 |        4,002 |    0.08× |          0.08× |`,
		"| slower  |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "Framework") || strings.Contains(md, "- New:") {
		t.Errorf("an ab table names the variants once, in its title:\n%s", md)
	}
}

func TestCompareJSONRoundTrip(t *testing.T) {
	tab := formatFixture(t)
	var buf bytes.Buffer
	if err := JSON(&buf, tab); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Table
		Regressed bool            `json:"regressed"`
		Counts    map[Verdict]int `json:"counts"`
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Table, *tab) {
		t.Errorf("decoded table differs:\n%+v\nwant\n%+v", got.Table, *tab)
	}
	if !got.Regressed || !reflect.DeepEqual(got.Counts, map[Verdict]int{Slower: 1, Same: 1, Unknown: 1, Faster: 0}) {
		t.Errorf("regressed %v counts %v", got.Regressed, got.Counts)
	}
	for _, key := range []string{`"verdict": "slower"`, `"p_holm": 0.015873015873015876`, `"why": "p_holm 0.016 < α 0.05, change -9.8% beyond ±5%"`, `"why": "4 rounds in new.json, need 5"`, `"basis": "rps"`} {
		if !strings.Contains(buf.String(), key) {
			t.Errorf("JSON lacks %s", key)
		}
	}
}
