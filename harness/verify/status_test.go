package verify

import (
	"testing"

	"github.com/tfbench/tfbench/harness/model"
)

func TestResultAddCappedAndMerge(t *testing.T) {
	r := pass()
	r.addCapped(model.Fail, model.Warn, "row %d", 1)
	if r.Status != model.Warn {
		t.Errorf("capped fail: %s, want warn", r.Status)
	}
	var o Result
	o.add(model.Fail, "bad")
	r.merge(o, "GET /x: ")
	if r.Status != model.Fail || len(r.Reasons) != 2 || r.Reasons[0] != "row 1" || r.Reasons[1] != "GET /x: bad" {
		t.Errorf("merged %s %q, want fail [row 1, GET /x: bad]", r.Status, r.Reasons)
	}
}
