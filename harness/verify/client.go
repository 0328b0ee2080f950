package verify

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/suite"
)

// requestTimeout bounds one verification request, headers and body, when
// Target.RequestTimeout is 0: TFB's load generator times a response out
// after 8 s (docs/tfb-rules.md, Method).
const requestTimeout = 8 * time.Second

// maxBodyBytes bounds a response body read in verification (16 MiB); the
// largest expected body, queries=501, is about 20 KB.
const maxBodyBytes = 16 << 20

// fetched is one received response.
type fetched struct {
	path   string
	status int
	// header holds the response headers with Transfer-Encoding put back
	// (net/http moves it to Response.TransferEncoding).
	header http.Header
	body   []byte
	// at is when the body was read in full.
	at time.Time
}

// date returns the first Date header value, or "".
func (f fetched) date() string {
	if d := f.header["Date"]; len(d) > 0 {
		return d[0]
	}
	return ""
}

// newClient returns the verification HTTP client with the default request
// timeout (requestTimeout, 8 s).
func newClient() *http.Client { return newClientTimeout(requestTimeout) }

// newClientTimeout returns the verification HTTP client: keep-alive, no
// compression or Accept-Encoding, no redirects followed, each request
// (headers and body) bounded by timeout.
func newClientTimeout(timeout time.Duration) *http.Client {
	return &http.Client{
		Timeout: timeout,
		Transport: &http.Transport{
			DisableCompression:  true,
			MaxIdleConnsPerHost: 2,
			IdleConnTimeout:     30 * time.Second,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// get requests base+path with the fixed header set of a tfbench request:
// Host (from the URL), Accept of test type t, Connection: keep-alive,
// User-Agent suite.UserAgent, and no Accept-Encoding. Errors name the URL.
func get(ctx context.Context, c *http.Client, base string, t model.TestType, path string) (fetched, error) {
	url := strings.TrimSuffix(base, "/") + path
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fetched{}, fmt.Errorf("GET %s: %w", url, err)
	}
	req.Header["Accept"] = []string{t.Accept()}
	req.Header["Connection"] = []string{"keep-alive"}
	req.Header["User-Agent"] = []string{suite.UserAgent}
	resp, err := c.Do(req)
	if err != nil {
		return fetched{}, err // net/http's error already names the method and URL
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBodyBytes+1))
	if err != nil {
		return fetched{}, fmt.Errorf("GET %s: read body: %w", url, err)
	}
	if len(body) > maxBodyBytes {
		return fetched{}, fmt.Errorf("GET %s: body over %d bytes", url, maxBodyBytes)
	}
	h := resp.Header
	if len(resp.TransferEncoding) > 0 {
		h = h.Clone()
		h["Transfer-Encoding"] = resp.TransferEncoding
	}
	return fetched{path: path, status: resp.StatusCode, header: h, body: body, at: time.Now()}, nil
}
