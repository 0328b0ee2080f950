package main

import (
	"slices"
	"strings"
)

// Plan is what a pull request's changed paths call for: an ab run per
// changed adapter (frameworks/X/), a harness run when the generator or the
// CLI may measure differently, nothing for the rest (docs, CI, reports).
type Plan struct {
	// Adapters are the X of changed frameworks/X/ paths, sorted.
	Adapters []string
	// Harness is true when a path under harness/, cmd/, internal/,
	// dataset/ or suites/, or go.mod or go.sum changed.
	Harness bool
	// Unmeasured are the changed paths neither of the above covers.
	Unmeasured []string
}

// Measures reports whether the plan runs anything.
func (p Plan) Measures() bool { return p.Harness || len(p.Adapters) > 0 }

// harnessPrefixes are the paths the tfbench binary is built from (the
// Taskfile's build sources) plus the suites it reads.
var harnessPrefixes = []string{"harness/", "cmd/", "internal/", "dataset/", "suites/"}

// Classify sorts changed paths (git diff --name-only, slash-separated,
// relative to the repository root) into a Plan.
func Classify(paths []string) Plan {
	var p Plan
	for _, path := range paths {
		switch {
		case strings.HasPrefix(path, "frameworks/"):
			name, rest, ok := strings.Cut(strings.TrimPrefix(path, "frameworks/"), "/")
			if !ok || name == "" || rest == "" {
				p.Unmeasured = append(p.Unmeasured, path) // a file directly under frameworks/
				continue
			}
			if !slices.Contains(p.Adapters, name) {
				p.Adapters = append(p.Adapters, name)
			}
		case path == "go.mod" || path == "go.sum":
			p.Harness = true
		case slices.ContainsFunc(harnessPrefixes, func(pre string) bool { return strings.HasPrefix(path, pre) }):
			p.Harness = true
		default:
			p.Unmeasured = append(p.Unmeasured, path)
		}
	}
	slices.Sort(p.Adapters)
	return p
}
