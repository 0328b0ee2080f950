package verify

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/tfbench/tfbench/harness/model"
)

// countingServer renders /fortunes on every request and /json only once
// (a hidden cache), and serves the counts at /__renders.
func countingServer(t *testing.T) *httptest.Server {
	var mu sync.Mutex
	counts := map[string]int64{}
	var cachedJSON []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		switch r.URL.Path {
		case "/__renders":
			json.NewEncoder(w).Encode(counts)
		case "/fortunes":
			counts["/fortunes"]++
			w.Write([]byte("<p>rendered</p>"))
		case "/queries":
			counts["/queries"]++
			w.Write([]byte("[]"))
		case "/json":
			if cachedJSON == nil {
				counts["/json"]++
				cachedJSON = []byte(`{"message":"Hello, World!"}`)
			}
			w.Write(cachedJSON)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestRenders(t *testing.T) {
	srv := countingServer(t)
	ctx := context.Background()
	if err := Renders(ctx, srv.URL, "/__renders", model.Fortunes, "/fortunes"); err != nil {
		t.Errorf("fortunes rendered on every request: %v", err)
	}
	if err := Renders(ctx, srv.URL, "/__renders", model.Queries, "/queries?queries=20"); err != nil {
		t.Errorf("queries: %v", err)
	}
	err := Renders(ctx, srv.URL, "/__renders", model.JSON, "/json")
	want := "1 renders of /json for 20 requests to /json (" + srv.URL + "/__renders): every request must render"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("cached json: %v, want %q", err, want)
	}
	err = Renders(ctx, srv.URL, "/nope", model.JSON, "/json")
	if err == nil || !strings.Contains(err.Error(), "/nope: status 404, want 200 with the render counts") {
		t.Errorf("missing counts endpoint: %v", err)
	}
	counts, err := RenderCounts(ctx, newClient(), srv.URL, "/__renders")
	if err != nil || counts["/fortunes"] != 20 || counts["/queries"] != 20 || counts["/json"] != 1 {
		t.Errorf("counts %v, %v", counts, err)
	}
	if RoutePath("/updates?queries=5") != "/updates" || RoutePath("/db") != "/db" {
		t.Error("RoutePath")
	}
}
