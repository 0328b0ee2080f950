package load

import (
	"testing"
)

func TestTarget(t *testing.T) {
	cases := []struct {
		url                      string
		scheme, addr, host, path string
		err                      string
	}{
		{url: "http://127.0.0.1:8080/json", scheme: "http", addr: "127.0.0.1:8080", host: "127.0.0.1:8080", path: "/json"},
		{url: "https://localhost/queries?queries=20", scheme: "https", addr: "localhost:443", host: "localhost", path: "/queries?queries=20"},
		{url: "http://[::1]:9000", scheme: "http", addr: "[::1]:9000", host: "[::1]:9000", path: "/"},
		{url: "ftp://x/", err: `load: URL "ftp://x/": the scheme must be http or https`},
		{url: "http:///json", err: `load: URL "http:///json": no host`},
		{url: "127.0.0.1:8080/json", err: `load: URL "127.0.0.1:8080/json": parse "127.0.0.1:8080/json": first path segment in URL cannot contain colon`},
	}
	for _, c := range cases {
		o, err := Target(c.url)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%s: err %v, want %q", c.url, err, c.err)
			}
			continue
		}
		if err != nil || o.Scheme != c.scheme || o.Addr != c.addr || o.Host != c.host || o.Path != c.path {
			t.Errorf("%s: %+v %v", c.url, o, err)
		}
	}
}
