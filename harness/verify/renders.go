package verify

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/tfbench/tfbench/harness/model"
)

// RenderRequests is how many sequential requests Renders sends per route.
const RenderRequests = 20

// RenderCounts reads an adapter's render counts (framework.yaml
// `render_counts`): GET base+countsPath answers 200 with a JSON object of
// route path to renders since start. Errors name the URL.
func RenderCounts(ctx context.Context, c *http.Client, base, countsPath string) (map[string]int64, error) {
	f, err := get(ctx, c, base, model.JSON, countsPath)
	if err != nil {
		return nil, err
	}
	url := strings.TrimSuffix(base, "/") + countsPath
	if f.status != http.StatusOK {
		return nil, fmt.Errorf("GET %s: status %d, want 200 with the render counts", url, f.status)
	}
	var counts map[string]int64
	if err := json.Unmarshal(f.body, &counts); err != nil {
		return nil, fmt.Errorf("GET %s: render counts: %w (want a JSON object of route path to count)", url, err)
	}
	return counts, nil
}

// RoutePath is the route a request path renders, for render counts: the
// path without its query string ("/queries?queries=20" → "/queries").
func RoutePath(path string) string {
	p, _, _ := strings.Cut(path, "?")
	return p
}

// Renders checks that the server renders path on every request
// (renders = requests, docs/adapters.md render_counts): RenderRequests sequential GETs must add exactly as
// many renders of RoutePath(path); a difference names both numbers.
func Renders(ctx context.Context, base, countsPath string, t model.TestType, path string) error {
	c := newClient()
	defer c.CloseIdleConnections()
	before, err := RenderCounts(ctx, c, base, countsPath)
	if err != nil {
		return err
	}
	for range RenderRequests {
		if _, err := get(ctx, c, base, t, path); err != nil {
			return err
		}
	}
	after, err := RenderCounts(ctx, c, base, countsPath)
	if err != nil {
		return err
	}
	route := RoutePath(path)
	if got := after[route] - before[route]; got != RenderRequests {
		return fmt.Errorf("%d renders of %s for %d requests to %s (%s): every request must render (no hidden caching)",
			got, route, RenderRequests, path, strings.TrimSuffix(base, "/")+countsPath)
	}
	return nil
}
