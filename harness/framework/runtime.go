package framework

import (
	"regexp"
	"strings"
)

// Runtime names accepted by `runtime:` (framework.yaml, top level or in a
// variant).
const (
	// RuntimeGo is the machine's Go toolchain; nothing is installed.
	RuntimeGo = "go"
	// RuntimeNode is Node.js, pinned to an exact version as "node@X.Y.Z"
	// and installed by runtimes.EnsureRuntime.
	RuntimeNode = "node"
)

// nodeSpecRE matches a pinned Node.js runtime: node@MAJOR.MINOR.PATCH,
// exact (no ranges, no "v" prefix).
var nodeSpecRE = regexp.MustCompile(`^node@(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$`)

// ValidRuntime reports whether spec is a `runtime:` value this package
// accepts: "go", or "node@X.Y.Z" with an exact version (e.g.
// "node@24.22.3"). The empty string (key absent) is handled by callers.
func ValidRuntime(spec string) bool {
	return spec == RuntimeGo || nodeSpecRE.MatchString(spec)
}

// NodeVersion returns X.Y.Z of a pinned Node.js runtime "node@X.Y.Z", and
// false for any other `runtime:` value ("go", "", or not valid).
func NodeVersion(spec string) (string, bool) {
	if !nodeSpecRE.MatchString(spec) {
		return "", false
	}
	return strings.TrimPrefix(spec, "node@"), true
}

// RuntimeSyntax is the hint errors give for a bad `runtime:` value.
const RuntimeSyntax = `must be "go" or an exact Node.js version such as "node@24.22.3"`
