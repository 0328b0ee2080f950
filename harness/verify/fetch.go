package verify

import (
	"context"
	"time"

	"github.com/tfbench/tfbench/harness/model"
)

// Fetch GETs baseURL+path once with verification's request for test type
// t, bounded by timeout (0: 8 s), and returns the status and body (at most
// 16 MiB); tfbench ab compares two targets' bodies from it.
func Fetch(ctx context.Context, baseURL string, t model.TestType, path string, timeout time.Duration) (int, []byte, error) {
	if timeout <= 0 {
		timeout = requestTimeout
	}
	c := newClientTimeout(timeout)
	defer c.CloseIdleConnections()
	f, err := get(ctx, c, baseURL, t, path)
	if err != nil {
		return 0, nil, err
	}
	return f.status, f.body, nil
}
