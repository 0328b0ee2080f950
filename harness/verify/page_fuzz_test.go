package verify

import (
	"fmt"
	"testing"

	"github.com/tfbench/tfbench/harness/model"
)

// FuzzPage feeds arbitrary bytes as a 3-row page of a 3-row World to the
// page rule. Properties:
//   - nothing panics (pageFast, firstTableStart, scanTag, commentLen,
//     pageTable, checkPage);
//   - the fast path never passes a page the slow path fails: pageFast true
//     means pageTable reads exactly the expected rows with no live script;
//   - a fail has at least one reason, a pass none, and the rule is
//     deterministic.
//
// Seeds are the page tests' pages (and testdata/fuzz/FuzzPage).
func FuzzPage(f *testing.F) {
	w := testWorld(3)
	rows := worldRows(w, 3)
	f.Add(plainPage(rows, nil))
	f.Add(refPageHTML(rows))
	f.Add(plainPage(rows, func(_ int, r worldRow) string {
		return fmt.Sprintf("<tr><td><!-- -->%d</td><td>&#x%x;%d<td></tr>", r.ID, '0'+r.RandomNumber/1000, r.RandomNumber%1000)
	}))
	f.Add(plainPage(rows, func(_ int, r worldRow) string {
		return fmt.Sprintf("<!--[--><tr><td><!---->%d<!--/--></td><td>%d</td></tr><!--]-->", r.ID, r.RandomNumber)
	}))
	f.Add([]byte(`<TABLE><Tr a='>'><tD>1</Td><td b=">">` + fmt.Sprint(w[0]) + `</td></tR></table>`))
	f.Fuzz(func(t *testing.T, page []byte) {
		fast := pageFast(page, w, 3)
		r := pass()
		checkPage(&r, page, w, 3, model.Fail)
		if fast && (r.Status != model.Pass || len(r.Reasons) > 0) {
			t.Fatalf("pageFast passes, the rule says %s %q", r.Status, r.Reasons)
		}
		if r.Status == model.Fail && len(r.Reasons) == 0 || r.Status == model.Pass && len(r.Reasons) > 0 {
			t.Fatalf("%s with reasons %q", r.Status, r.Reasons)
		}
		again := pass()
		checkPage(&again, page, w, 3, model.Fail)
		if again.Status != r.Status || fmt.Sprint(again.Reasons) != fmt.Sprint(r.Reasons) {
			t.Fatal("checkPage is not deterministic")
		}
		pageFast(page, nil, 0)
		checkPage(&again, page, nil, 0, model.Warn)
	})
}
