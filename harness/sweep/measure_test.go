package sweep

import (
	"testing"

	"github.com/tfbench/tfbench/harness/model"
)

// failGate keeps the reasons already given.
func TestFailGate(t *testing.T) {
	if g := failGate(model.GateResult{Passed: true}, "b"); g != (model.GateResult{Reason: "b"}) {
		t.Errorf("%+v", g)
	}
	if g := failGate(model.GateResult{Reason: "a"}, "b"); g != (model.GateResult{Reason: "a; b"}) {
		t.Errorf("%+v", g)
	}
}
