package framework

import (
	"fmt"
	"slices"
	"strings"
)

// Variant returns the variant called name; "" selects the first variant in
// file order (the default). An unknown name is an error that lists the
// adapter's variants.
func (s *Spec) Variant(name string) (Variant, error) {
	if name == "" {
		return s.Variants[0], nil
	}
	names := make([]string, len(s.Variants))
	for i, v := range s.Variants {
		if v.Name == name {
			return v, nil
		}
		names[i] = v.Name
	}
	return Variant{}, fmt.Errorf("framework %s: no variant %q (have: %s)", s.Name, name, strings.Join(names, ", "))
}

// ForVariant is the Spec variant v builds with: s itself, or, when v has
// its own `build:`, a copy whose Build is v's and whose Env has v's env
// applied last (it then stages apart: stage.StageRoot's variant argument).
func (s *Spec) ForVariant(v Variant) *Spec {
	if v.Build == "" {
		return s
	}
	c := *s
	c.Build = v.Build
	c.Env = map[string]string{}
	for k, val := range s.Env {
		c.Env[k] = val
	}
	for k, val := range v.Env {
		c.Env[k] = val
	}
	return &c
}

// RuntimeOf returns the `runtime:` value variant v runs on: the variant's
// own runtime if it names one, else the adapter's ("" when neither does).
func (s *Spec) RuntimeOf(v Variant) string {
	if v.Runtime != "" {
		return v.Runtime
	}
	return s.Runtime
}

// Runtimes returns the adapter's distinct non-empty `runtime:` values, its own
// first, then the variants' in file order: what runtimes.EnsureRuntime must
// install before all variants build and start.
func (s *Spec) Runtimes() []string {
	var out []string
	for _, r := range append([]string{s.Runtime}, variantRuntimes(s.Variants)...) {
		if r != "" && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}

func variantRuntimes(vs []Variant) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.Runtime
	}
	return out
}
