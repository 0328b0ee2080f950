package profile

import (
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/tfbench/tfbench/harness/texttab"
)

// Write prints p: a line per file (and their sum), then self time by area
// and the top functions by self time, top rows each (0: all; further areas
// sum to "other"); percentages are of the sampled time without idle.
func Write(w io.Writer, p *Profile, top int) error {
	for _, f := range p.Files {
		fmt.Fprintf(w, "%s: %s, %s samples over %s: %s sampled%s\n",
			f.Path, f.Format, humanize.Comma(f.Samples), seconds(f.Wall), ms(f.Total), idleText(f.Idle))
	}
	if len(p.Files) > 1 {
		fmt.Fprintf(w, "summed over %d files: %s samples: %s sampled%s\n",
			len(p.Files), humanize.Comma(p.Samples), ms(p.Total), idleText(p.Idle))
	}
	right := []texttab.Align{texttab.Left, texttab.Right, texttab.Right}
	areas := p.Areas()
	var rows [][]string
	for i, a := range areas {
		if top > 0 && i == top && len(areas) > top {
			var rest time.Duration
			for _, b := range areas[i:] {
				rest += b.Self
			}
			rows = append(rows, []string{fmt.Sprintf("other (%d areas)", len(areas)-i), msNum(rest), share(rest, p.Total)})
			break
		}
		rows = append(rows, []string{a.Name, msNum(a.Self), share(a.Self, p.Total)})
	}
	fmt.Fprintf(w, "\nself time by area:\n\n")
	if err := texttab.Markdown(w, texttab.Table{Header: []string{"area", "self ms", "self %"}, Rows: rows, Align: right}); err != nil {
		return err
	}
	funcs := p.Funcs
	title := "all functions by self time"
	if top > 0 && len(funcs) > top {
		funcs = funcs[:top]
		title = "top " + strconv.Itoa(top) + " functions by self time"
	}
	rows = rows[:0]
	for _, f := range funcs {
		rows = append(rows, []string{f.Name, f.File, msNum(f.Self), share(f.Self, p.Total)})
	}
	fmt.Fprintf(w, "\n%s (of %d):\n\n", title, len(p.Funcs))
	return texttab.Markdown(w, texttab.Table{Header: []string{"function", "file", "self ms", "self %"}, Rows: rows,
		Align: []texttab.Align{texttab.Left, texttab.Left, texttab.Right, texttab.Right}})
}

func idleText(d time.Duration) string {
	if d == 0 {
		return ""
	}
	return ", idle " + ms(d) + " not counted"
}

func seconds(d time.Duration) string { return fmt.Sprintf("%.2f s", d.Seconds()) }

func ms(d time.Duration) string { return msNum(d) + " ms" }

// msNum is d in ms with one decimal and thousands separators: 12,345.6.
func msNum(d time.Duration) string {
	tenths := (d + 50*time.Microsecond) / (100 * time.Microsecond)
	return humanize.Comma(int64(tenths/10)) + "." + strconv.Itoa(int(tenths%10))
}

func share(d, total time.Duration) string {
	if total <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(d)/float64(total))
}
