package texttab

import (
	"strings"
	"testing"
)

// TestTexttabMarkdown: columns keep their alignment, cells are escaped and
// not reformatted.
func TestTexttabMarkdown(t *testing.T) {
	var tab Table
	tab.Col("name", Left)
	tab.Col("rps", Right)
	tab.Row("a|b", "1,974")
	tab.Row("two\nlines", "12.5")
	var b strings.Builder
	if err := Markdown(&b, tab); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	for _, want := range []string{`a\|b`, "two lines", "1,974", ":---", "---:"} {
		if !strings.Contains(got, want) {
			t.Errorf("Markdown = %q, want it to contain %q", got, want)
		}
	}
}
