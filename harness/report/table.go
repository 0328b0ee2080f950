package report

import (
	"io"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

// table writes one markdown table. Cells are escaped for markdown ("|"
// would end a cell; newlines would end the row) and never reformatted or
// wrapped.
func Table(w io.Writer, header []string, rows [][]string, align []tw.Align) error {
	t := tablewriter.NewTable(w,
		tablewriter.WithRenderer(renderer.NewMarkdown()),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
		tablewriter.WithHeaderAutoWrap(tw.WrapNone),
		tablewriter.WithTrimSpace(tw.Off),
	)
	if align != nil {
		t.Configure(func(c *tablewriter.Config) {
			c.Row.Alignment.PerColumn = align
			c.Header.Alignment.PerColumn = align
		})
	}
	t.Header(escapeAll(header))
	for _, r := range rows {
		if err := t.Append(escapeAll(r)); err != nil {
			return err
		}
	}
	return t.Render()
}

func escapeAll(cells []string) []string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = Escape(c)
	}
	return out
}

// Escape makes s safe inside a markdown table cell: "|" becomes "\|" and
// line breaks become spaces.
func Escape(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	s = strings.ReplaceAll(s, "\r\n", " ")
	return strings.ReplaceAll(s, "\n", " ")
}
