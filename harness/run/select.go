package run

import (
	"fmt"
	"strings"

	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/harness/model"
)

// Select resolves the CLI's NAME, NAME:VARIANT or NAME:* items against the
// adapters in dir: no items or NAME alone select every variant not `by_name:
// true`, NAME:* all of NAME's. Unknown names or variants list what exists.
func Select(specs []*framework.Spec, items []string, dir string) ([]Target, error) {
	var out []Target
	add := func(s *framework.Spec, all bool) {
		for _, v := range s.Variants {
			if all || !v.ByName {
				out = append(out, Target{Spec: s, Variant: v})
			}
		}
	}
	if len(items) == 0 {
		for _, s := range specs {
			add(s, false)
		}
		return out, nil
	}
	byName := map[string]*framework.Spec{}
	var names []string
	for _, s := range specs {
		byName[s.Name] = s
		names = append(names, s.Name)
	}
	for _, item := range items {
		name, variant, hasVariant := model.CutSelector(item)
		s, ok := byName[name]
		if !ok {
			if id, err := model.ParseID(name); err == nil && byName[id.Framework] != nil {
				return nil, fmt.Errorf("no framework %q in %s: a variant is named NAME:VARIANT (%s:%s)", name, dir, id.Framework, id.Variant)
			}
			return nil, fmt.Errorf("no framework %q in %s (have %s)", name, dir, strings.Join(names, ", "))
		}
		if !hasVariant || variant == "*" {
			add(s, hasVariant)
			continue
		}
		v, err := s.Variant(variant)
		if err != nil {
			return nil, err
		}
		out = append(out, Target{Spec: s, Variant: v})
	}
	return out, nil
}
