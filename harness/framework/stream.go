package framework

import (
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/tfbench/tfbench/harness/model"
)

// parts checks the {k} placeholder of endpoint p for test type t: a stream
// path holds it (the parts K, docs/ssr.md), no other type's does.
func (l loader) parts(v *yaml.Node, key string, t model.TestType, p string) error {
	hasK := strings.Contains(p, "{k}")
	if t == model.Stream && !hasK {
		return l.Errorf(v, key, "%q lacks the {k} placeholder for the parts (e.g. /stream?rows={n}&parts={k})", p)
	}
	if t != model.Stream && hasK {
		return l.Errorf(v, key, "%q has {k}, which only stream takes", p)
	}
	return nil
}

// unsupported reads `unsupported:`, a mapping of test type to the reason
// the adapter cannot serve it (one line of text, not empty).
func (l loader) unsupported(n *yaml.Node, keyPath string) (map[model.TestType]string, error) {
	kv, err := l.Entries(n, keyPath)
	if err != nil {
		return nil, err
	}
	out := make(map[model.TestType]string, len(kv))
	for _, e := range kv {
		t := model.TestType(e.Key.Value)
		if !t.Valid() {
			names := make([]string, len(model.Types))
			for i, t := range model.Types {
				names[i] = string(t)
			}
			return nil, l.Errorf(e.Key, e.Path, "unknown test type (known: %s)", strings.Join(names, ", "))
		}
		why, err := l.Str(e.Value, e.Path)
		if err != nil {
			return nil, err
		}
		why = strings.TrimSpace(why)
		if why == "" || strings.Contains(why, "\n") {
			return nil, l.Errorf(e.Value, e.Path, "the reason must be one line of text, e.g. \"renders the whole page before its first byte\"")
		}
		out[t] = why
	}
	return out, nil
}

// unsupportedServed refuses a test type both served (`endpoints:`) and
// declared unsupported: one of the two is wrong. The error is at the
// `unsupported:` entry's line.
func (l loader) unsupportedServed(root *yaml.Node, s *Spec) error {
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value != "unsupported" || root.Content[i+1].Kind != yaml.MappingNode {
			continue
		}
		m := root.Content[i+1]
		for j := 0; j+1 < len(m.Content); j += 2 {
			t := model.TestType(m.Content[j].Value)
			if p, ok := s.Endpoints[t]; ok {
				return l.Errorf(m.Content[j], "unsupported."+string(t), "the adapter serves %s at %s (endpoints.%s): drop one of the two", t, p, t)
			}
		}
	}
	return nil
}

// NotApplicable is the reason the adapter gives for not serving test type t
// (`unsupported:`), or "" when it does not declare one.
func (s *Spec) NotApplicable(t model.TestType) string { return s.Unsupported[t] }
