package texttab

import (
	"io"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

// Markdown writes t as one markdown table. Cells are escaped for markdown
// ("|" would end a cell; newlines would end the row) and never reformatted
// or wrapped. Errors are the writer's.
func Markdown(w io.Writer, t Table) error {
	tt := tablewriter.NewTable(w,
		tablewriter.WithRenderer(renderer.NewMarkdown()),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
		tablewriter.WithHeaderAutoWrap(tw.WrapNone),
		tablewriter.WithTrimSpace(tw.Off),
	)
	if t.Align != nil {
		align := make([]tw.Align, len(t.Align))
		for i, a := range t.Align {
			align[i] = twAlign(a)
		}
		tt.Configure(func(c *tablewriter.Config) {
			c.Row.Alignment.PerColumn = align
			c.Header.Alignment.PerColumn = align
		})
	}
	tt.Header(escapeAll(t.Header))
	for _, r := range t.Rows {
		if err := tt.Append(escapeAll(r)); err != nil {
			return err
		}
	}
	return tt.Render()
}

func twAlign(a Align) tw.Align {
	if a == Right {
		return tw.AlignRight
	}
	return tw.AlignLeft
}
