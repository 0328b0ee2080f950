package load

import (
	"context"
	"fmt"
	"strings"
)

// Engine is a load generator engine: Run runs one sample's load as o describes.
// Every engine fills Result with the same meaning (units, window, error classes:
// the package doc), so samples compare; Run's error is for bad options or ctx only.
type Engine interface {
	// Name is the engine's name in suites and results ("raw", "hey").
	Name() string
	// Run measures one window; see Run.
	Run(ctx context.Context, o Options) (*Result, error)
}

// Raw is engine "raw": HTTP/1.1 over plain TCP with this package's own
// client (see Run).
type Raw struct{}

func (Raw) Name() string { return "raw" }

// Run is the package function Run, after refusing what raw does not speak:
// Options.Scheme "https" and Options.HTTP2 are an error naming engine hey.
func (Raw) Run(ctx context.Context, o Options) (*Result, error) {
	if o.Scheme == "https" || o.HTTP2 {
		return nil, fmt.Errorf("load: options: Scheme %q, HTTP2 %v: engine raw speaks HTTP/1.1 over plain TCP only (use engine hey)", o.Scheme, o.HTTP2)
	}
	return Run(ctx, o)
}

// engineNames lists the engine names EngineFor knows.
var engineNames = []string{"raw", "hey"}

// EngineFor returns the engine a suite names (suite.Settings.Engine): "raw"
// (also "") or "hey"; EngineForScheme chooses by URL scheme.
func EngineFor(name string) (Engine, error) {
	switch name {
	case "", "raw":
		return Raw{}, nil
	case "hey":
		return Hey{}, nil
	}
	return nil, fmt.Errorf("load: unknown engine %q (known: %s)", name, strings.Join(engineNames, ", "))
}

// EngineForScheme returns the engine for URL scheme scheme ("" is http) and a
// suite's engine name: unnamed, http gets raw and https hey; a named engine
// must speak the scheme (raw cannot do https).
func EngineForScheme(name, scheme string) (Engine, error) {
	switch scheme {
	case "", "http":
		return EngineFor(name)
	case "https":
		switch name {
		case "":
			return Hey{}, nil
		case "raw":
			return nil, fmt.Errorf("load: engine raw cannot load https:// targets (plain TCP only); use engine hey")
		}
		return EngineFor(name)
	}
	return nil, fmt.Errorf("load: unknown URL scheme %q (known: http, https)", scheme)
}
