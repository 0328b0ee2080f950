package texttab

import (
	"bufio"
	"io"
	"strings"
	"unicode/utf8"
)

// Text writes t as aligned plain text for terminals and .txt files: each
// column as wide as its widest cell (in runes) plus two spaces, Right cells
// padded on the left, Left ones on the right, a last Left column unpadded.
// A row's cells past the header's are written after it as they are (a
// note). Cells are not escaped. Errors are the writer's.
func Text(w io.Writer, t Table) error {
	width := make([]int, len(t.Header))
	for _, r := range append([][]string{t.Header}, t.Rows...) {
		for i, c := range r[:min(len(r), len(width))] {
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	bw := bufio.NewWriter(w)
	for _, r := range append([][]string{t.Header}, t.Rows...) {
		for i, c := range r {
			switch {
			case i >= len(width):
				bw.WriteString(c)
			case t.align(i) == Right:
				bw.WriteString(strings.Repeat(" ", width[i]+2-utf8.RuneCountInString(c)))
				bw.WriteString(c)
			case i == len(width)-1:
				bw.WriteString(c)
			default:
				bw.WriteString(c)
				bw.WriteString(strings.Repeat(" ", width[i]+2-utf8.RuneCountInString(c)))
			}
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// align is column i's alignment, Left when Align does not say.
func (t Table) align(i int) Align {
	if i < len(t.Align) {
		return t.Align[i]
	}
	return Left
}

// AllRight returns n Right alignments: a table of figures.
func AllRight(n int) []Align {
	a := make([]Align, n)
	for i := range a {
		a[i] = Right
	}
	return a
}
