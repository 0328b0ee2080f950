package load

import (
	"fmt"
	"net"
	"net/url"
)

// Target fills the Options fields a URL decides: Scheme, Addr (port defaulting to
// 80 or 443), Host (as written) and Path (path and query, "/" when empty). Errors
// name the URL: not http or https, no host, a user or a fragment.
func Target(rawURL string) (Options, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return Options{}, fmt.Errorf("load: URL %q: %w", rawURL, err)
	}
	bad := func(why string) (Options, error) { return Options{}, fmt.Errorf("load: URL %q: %s", rawURL, why) }
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return bad("the scheme must be http or https")
	case u.Hostname() == "":
		return bad("no host")
	case u.User != nil:
		return bad("user information is not sent")
	case u.Fragment != "":
		return bad("a fragment is not sent")
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	return Options{Scheme: u.Scheme, Addr: net.JoinHostPort(u.Hostname(), port), Host: u.Host, Path: u.RequestURI()}, nil
}
