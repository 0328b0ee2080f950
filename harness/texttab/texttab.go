// Package texttab is tfbench's own table (header, rows, column alignment),
// built by the packages that print tables and rendered here as markdown
// (the one place that uses tablewriter) or as aligned text (Text).
package texttab

import "strings"

// Align is a column's alignment.
type Align int

// Alignments: Left (the zero value) and Right.
const (
	Left Align = iota
	Right
)

// Table is one table: Header names the columns, Rows are the cells, row by
// row; Align, when set, has one alignment per column.
type Table struct {
	Header []string
	Rows   [][]string
	Align  []Align
}

// Col appends a column named name with alignment a to the header.
func (t *Table) Col(name string, a Align) {
	t.Header = append(t.Header, name)
	t.Align = append(t.Align, a)
}

// Row appends one row of cells.
func (t *Table) Row(cells ...string) { t.Rows = append(t.Rows, cells) }

// Escape makes s safe inside a markdown table cell: "|" becomes "\|" and
// line breaks become spaces.
func Escape(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	s = strings.ReplaceAll(s, "\r\n", " ")
	return strings.ReplaceAll(s, "\n", " ")
}

func escapeAll(cells []string) []string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = Escape(c)
	}
	return out
}
