package suite

import (
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/tfbench/tfbench/harness/model"
)

// stream applies a stream test's own rules to t (n is its entry, parts its
// `parts` value or nil): K defaults to DefaultParts, the path holds {k};
// `parts` on any other type is an error (docs/suites.md).
func (p parser) stream(n, parts *yaml.Node, t *Test) error {
	if t.Type != model.Stream {
		if parts != nil {
			return p.Errorf(parts, "parts", "only stream tests take parts, not %s", t.Type)
		}
		return nil
	}
	if t.Parts == 0 {
		t.Parts = DefaultParts
	}
	if !strings.Contains(t.Path, "{k}") {
		return p.Errorf(n, "path", "a stream path needs the {k} placeholder for the parts")
	}
	return nil
}
