package compare

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/texttab"
	"github.com/tfbench/tfbench/internal/words"
)

// Markdown writes t as markdown: a header naming both sides, the method
// and statistics, ab's byte-equivalence verdicts, the family limit and
// verdict counts, one table row per Row, then warnings and notes.
func Markdown(w io.Writer, t *Table) error {
	m := &mdWriter{w: w}
	o := t.Options
	if t.BaseVariant != "" {
		m.printf("# tfbench ab: %s → %s\n\n", t.BaseVariant, t.NewVariant)
		m.printf("- Run: %s\n", runsText(t.Base))
	} else {
		m.printf("# tfbench compare: %s → %s\n\n", t.Base.Name, t.New.Name)
		m.printf("- Base: %s\n", sideText(t.Base))
		m.printf("- New: %s\n", sideText(t.New))
	}
	m.printf("- Method version %d, suite %s (sha256 %s)\n", t.Base.MethodVersion, t.Base.Suite, words.Commit(t.Base.SuiteHash))
	values, unit := "RPS", "RPS"
	if o.Basis == BasisRatio {
		values = "RPS ÷ " + o.Reference + " RPS of the same run and round"
		unit = "ratios to " + o.Reference
	}
	m.printf("- Basis %s: per-round %s at each side's own peak level\n", o.Basis, values)
	tested := 0
	for _, r := range t.Rows {
		if r.Tested {
			tested++
		}
	}
	m.printf("- p is from a two-sided Mann-Whitney U test over the per-round %s (%s vs %s); p (Holm) is Holm–Bonferroni-adjusted across this table's %d tested rows. "+
		"A row is slower or faster when p (Holm) < α = %g and its median changed by at least %s; it needs ≥ %d rounds per side.\n\n",
		unit, t.Base.Name, t.New.Name, tested, o.Alpha, minText(o.MinChange), MinRounds)
	equivalence(m, t.Equivalence)
	if t.Limit != "" {
		m.printf("**No verdict possible: %s.**\n\n", t.Limit)
	}
	m.printf("Verdicts: %d slower, %d faster, %d same, %d unknown.\n\n", t.Count(Slower), t.Count(Faster), t.Count(Same), t.Count(Unknown))

	multi := len(t.Base.Runs) > 1 || len(t.New.Runs) > 1
	var tab texttab.Table
	col := tab.Col
	if t.BaseVariant == "" {
		if multi {
			col("Run", texttab.Left)
		}
		col("Framework", texttab.Left)
		col("Variant", texttab.Left)
	}
	col("Test", texttab.Left)
	col("N", texttab.Right)
	for _, h := range []string{"Base peak RPS", "New peak RPS", "New/base", "Norm. new/base", "Base CPU ms/req", "New CPU ms/req", "Change", "p", "p (Holm)"} {
		col(h, texttab.Right)
	}
	col("Verdict", texttab.Left)
	col("Why", texttab.Left)
	for _, r := range t.Rows {
		var cells []string
		if t.BaseVariant == "" {
			if multi {
				run := r.New.Run
				if r.Base.Run != r.New.Run {
					run = r.Base.Run + " → " + r.New.Run
				}
				cells = append(cells, run)
			}
			cells = append(cells, r.Framework, r.Variant)
		}
		n := ""
		if r.N > 0 {
			n = strconv.Itoa(r.N)
		}
		change, p, ph := "—", "—", "—"
		if len(r.Base.Values) > 0 && len(r.New.Values) > 0 {
			change = pct(r.Change)
		}
		if r.Tested {
			p, ph = pText(r.P), pText(r.PHolm)
		}
		cells = append(cells, r.Test, n, peak(r.Base), peak(r.New), times(r.Ratio), times(r.NormRatio),
			cpu(r.Base), cpu(r.New), change, p, ph, string(r.Verdict), r.Why)
		tab.Row(cells...)
	}
	if m.err == nil {
		m.err = texttab.Markdown(w, tab)
	}
	for _, list := range []struct {
		title string
		items []string
	}{{"Warnings", t.Warnings}, {"Notes", t.Notes}} {
		if len(list.items) == 0 {
			continue
		}
		m.printf("\n## %s\n\n", list.title)
		for _, s := range list.items {
			m.printf("- %s\n", s)
		}
	}
	return m.err
}

// JSON writes t as indented JSON: the Table's fields plus "regressed"
// (Regressed) and "counts" (rows per verdict). Errors are the writer's.
func JSON(w io.Writer, t *Table) error {
	out := struct {
		*Table
		Regressed bool            `json:"regressed"`
		Counts    map[Verdict]int `json:"counts"`
	}{t, t.Regressed(), map[Verdict]int{}}
	for _, v := range []Verdict{Faster, Slower, Same, Unknown} {
		out.Counts[v] = t.Count(v)
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false) // keep "<" and "≥" readable in Why
	enc.SetIndent("", " ")
	return enc.Encode(out)
}

type mdWriter struct {
	w   io.Writer
	err error
}

func (m *mdWriter) printf(format string, a ...any) {
	if m.err == nil {
		_, m.err = fmt.Fprintf(m.w, format, a...)
	}
}

// sideText describes a side's file and runs: "`base.json`: run r1 on h
// (cpu, 2 logical CPUs, x86_64), 5 rounds".
func sideText(s Meta) string { return fmt.Sprintf("`%s`: %s", s.Name, runsText(s)) }

// runsText describes a side's runs: "run r1 on h (cpu, 2 logical CPUs,
// x86_64), 5 rounds; run r2 …".
func runsText(s Meta) string {
	var runs []string
	for _, r := range s.Runs {
		id := r.Label
		if r.RunID != "" && r.RunID != r.Label {
			id += " (run ID " + r.RunID + ")"
		}
		h := r.Host
		hw := fmt.Sprintf("%s, %d logical CPUs, %s", words.OrDash(h.CPUModel), h.LogicalCPUs, words.OrDash(h.Arch))
		if h.Runner != "" {
			hw += ", runner " + h.Runner
		}
		runs = append(runs, fmt.Sprintf("run %s on %s (%s), %d rounds", id, words.OrDash(h.Hostname), hw, r.Rounds))
	}
	return strings.Join(runs, "; ")
}

// peak is a side's peak RPS as a whole number with thousands separators,
// "—" without a peak.
func peak(s Side) string {
	if !s.OK {
		return "—"
	}
	return texttab.RPS(s.Peak) // a slow page keeps its decimal: 4.2, not 4
}

func cpu(s Side) string {
	if !s.OK {
		return "—"
	}
	return fmt.Sprintf("%.3f", s.CPUms)
}

func times(x float64) string {
	if x == 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f×", x)
}

// pct writes a change as a signed percentage: -0.098 → "-9.8%".
func pct(c float64) string { return fmt.Sprintf("%+.1f%%", c*100) }

// pText writes a p-value with two significant digits: 0.0079, 0.056, 1.
func pText(p float64) string { return strconv.FormatFloat(p, 'g', 2, 64) }

// minText writes a share as a percentage: 0.05 → "5%".
func minText(m float64) string { return fmt.Sprintf("%.4g%%", m*100) }

// equivalence writes the byte-equivalence verdicts (none: nothing): a
// summary line, bold when a test is not identical, and one item per test
// with its path; excerpts are %q-quoted in code spans.
func equivalence(m *mdWriter, es []results.Equivalence) {
	if len(es) == 0 {
		return
	}
	bad := 0
	for _, e := range es {
		if !e.Identical {
			bad++
		}
	}
	const how = "pages fetched from both sides before measuring, compared byte for byte after masking per-request and per-build values"
	if bad == 0 {
		m.printf("Byte-equivalence: all %d tests identical (%s).\n\n", len(es), how)
	} else {
		m.printf("**Byte-equivalence: %d of %d tests not identical** (%s).\n\n", bad, len(es), how)
	}
	for _, e := range es {
		var v string
		switch {
		case e.Error != "":
			v = "**not compared**: " + e.Error
		case e.Identical:
			v = e.Text()
		default:
			v = fmt.Sprintf("**differs at byte %d**: base %s new %s", e.Offset, codeSpan(strconv.Quote(e.Base)), codeSpan(strconv.Quote(e.New)))
		}
		m.printf("- %s %s: %s\n", e.Test, codeSpan(e.Path), v)
	}
	m.printf("\n")
}

// codeSpan is s as a markdown code span: fenced by one backtick more than
// the longest run of backticks in s, padded with a space when s starts or
// ends with one.
func codeSpan(s string) string {
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}
