package load

import (
	"context"
	"fmt"
)

// Engine is a load generator engine: it runs one sample's load as o
// describes and returns what came back. Every engine fills Result with the
// same meaning (units, window rule, error classes; see the package doc), so
// samples from different engines compare. Run's error is for bad options or
// a cancelled ctx only.
type Engine interface {
	// Name is the engine's name in suites and results ("raw").
	Name() string
	// Run measures one window; see Run.
	Run(ctx context.Context, o Options) (*Result, error)
}

// Raw is engine "raw": HTTP/1.1 over plain TCP with this package's own
// client (see Run).
type Raw struct{}

// Name returns "raw".
func (Raw) Name() string { return "raw" }

// Run is the package function Run.
func (Raw) Run(ctx context.Context, o Options) (*Result, error) { return Run(ctx, o) }

// EngineFor returns the engine a suite names (suite.Settings.Engine). An
// empty name means "raw". Unknown names are an error naming the engine.
func EngineFor(name string) (Engine, error) {
	switch name {
	case "", "raw":
		return Raw{}, nil
	}
	return nil, fmt.Errorf("load: unknown engine %q (known: raw)", name)
}
