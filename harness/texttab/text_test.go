package texttab

import (
	"bytes"
	"strings"
	"testing"
	"text/tabwriter"
)

func TestTextRight(t *testing.T) {
	tab := Table{Header: []string{"test", "engine/pool", "ratio"}, Align: AllRight(3)}
	tab.Row("json", "88950", "1.30×")
	tab.Row("page N=10000", "171", "—")
	var b bytes.Buffer
	if err := Text(&b, tab); err != nil {
		t.Fatal(err)
	}
	want := "          test  engine/pool  ratio\n" +
		"          json        88950  1.30×\n" +
		"  page N=10000          171      —\n"
	if b.String() != want {
		t.Errorf("Text:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestTextLeftLastUnpadded(t *testing.T) {
	tab := Table{Header: []string{"NAME", "RUNTIME", "DESCRIPTION"}}
	tab.Row("go-stdlib", "go", "net/http")
	tab.Row("engine", "go", "V8 isolates, a longer one")
	var b bytes.Buffer
	if err := Text(&b, tab); err != nil {
		t.Fatal(err)
	}
	want := "NAME       RUNTIME  DESCRIPTION\n" +
		"go-stdlib  go       net/http\n" +
		"engine     go       V8 isolates, a longer one\n"
	if b.String() != want {
		t.Errorf("Text:\n%s\nwant:\n%s", b.String(), want)
	}
}

// TestTextAsTabwriter holds Text to text/tabwriter's output for the two
// ways tfbench's text tables used it: figures right-aligned with every cell
// tab-terminated (a note after the last tab on some rows), and names left-
// aligned with the last cell unterminated.
func TestTextAsTabwriter(t *testing.T) {
	rows := [][]string{
		{"  test", "a", "b", "verdict"},
		{"  queries N=20", "11076", "9159", "same"},
		{"  page N=10", "34509", "—", "unknown", "  no peak"},
		{"  x", "", "1", "faster"},
	}
	var tw1 bytes.Buffer
	w := tabwriter.NewWriter(&tw1, 0, 4, 2, ' ', tabwriter.AlignRight)
	for _, r := range rows {
		line := strings.Join(r[:4], "\t") + "\t"
		if len(r) > 4 {
			line += r[4]
		}
		w.Write([]byte(line + "\n"))
	}
	w.Flush()
	tab := Table{Header: rows[0], Rows: rows[1:], Align: AllRight(4)}
	var got bytes.Buffer
	if err := Text(&got, tab); err != nil {
		t.Fatal(err)
	}
	if got.String() != tw1.String() {
		t.Errorf("right-aligned: Text:\n%q\ntabwriter:\n%q", got.String(), tw1.String())
	}

	left := [][]string{{"NAME", "VARIANTS", "DESCRIPTION"}, {"node-http", "default", "node:http — its own"}, {"qwik", "", "Qwik City"}}
	var tw2 bytes.Buffer
	w = tabwriter.NewWriter(&tw2, 0, 4, 2, ' ', 0)
	for _, r := range left {
		w.Write([]byte(strings.Join(r, "\t") + "\n"))
	}
	w.Flush()
	got.Reset()
	if err := Text(&got, Table{Header: left[0], Rows: left[1:]}); err != nil {
		t.Fatal(err)
	}
	if got.String() != tw2.String() {
		t.Errorf("left-aligned: Text:\n%q\ntabwriter:\n%q", got.String(), tw2.String())
	}
}
