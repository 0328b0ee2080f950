package runtimes

import (
	"context"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/tfbench/tfbench/internal/untar"
)

// maxTarball bounds a package download (Node.js's is about 30 MB
// compressed) so a misbehaving registry cannot fill the disk.
const maxTarball = 512 << 20

// fetchPackage downloads name@version from the npm registry at registry (a base
// URL) via its metadata's dist.tarball, checks the sha512 dist.integrity and
// unpacks "package/" into dir (created). Errors name the package and the URL.
func fetchPackage(ctx context.Context, registry, name, version, dir string) error {
	where := name + "@" + version
	metaURL, err := url.JoinPath(registry, url.PathEscape(name), version)
	if err != nil {
		return fmt.Errorf("%s: registry %q: %w", where, registry, err)
	}
	var meta struct {
		Dist struct {
			Tarball   string `json:"tarball"`
			Integrity string `json:"integrity"`
		} `json:"dist"`
	}
	body, err := get(ctx, metaURL)
	if err != nil {
		return fmt.Errorf("%s: %w", where, err)
	}
	err = json.NewDecoder(io.LimitReader(body, 1<<20)).Decode(&meta)
	body.Close()
	if err != nil {
		return fmt.Errorf("%s: GET %s: %w", where, metaURL, err)
	}
	want, ok := strings.CutPrefix(meta.Dist.Integrity, "sha512-")
	if meta.Dist.Tarball == "" || !ok {
		return fmt.Errorf("%s: GET %s: no dist.tarball with a sha512 dist.integrity", where, metaURL)
	}

	err = fetchTarball(ctx, meta.Dist.Tarball, dir, sha512.New(), func(sum []byte) error {
		if got := base64.StdEncoding.EncodeToString(sum); got != want {
			return fmt.Errorf("%s: sha512 %s does not match the registry's integrity %s", meta.Dist.Tarball, got, want)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("%s: %w", where, err)
	}
	return nil
}

// fetchTarball GETs the gzip tarball at u into a temporary file beside dir
// (at most maxTarball bytes), hashes it with h, lets check judge the digest
// and unpacks it into dir. Errors name u; the caller says what it fetched.
func fetchTarball(ctx context.Context, u, dir string, h hash.Hash, check func(sum []byte) error) error {
	tgz, err := os.CreateTemp(filepath.Dir(dir), ".download-*.tgz")
	if err != nil {
		return err
	}
	defer os.Remove(tgz.Name())
	defer tgz.Close()
	body, err := get(ctx, u)
	if err != nil {
		return err
	}
	n, err := io.Copy(io.MultiWriter(tgz, h), io.LimitReader(body, maxTarball+1))
	body.Close()
	if err != nil {
		return fmt.Errorf("GET %s: %w", u, err)
	}
	if n > maxTarball {
		return fmt.Errorf("GET %s: larger than %d MiB", u, maxTarball>>20)
	}
	if err := check(h.Sum(nil)); err != nil {
		return err
	}
	if _, err := tgz.Seek(0, io.SeekStart); err != nil {
		return err
	}
	if err := unpack(tgz, dir); err != nil {
		return fmt.Errorf("unpack %s: %w", u, err)
	}
	return nil
}

// statusError is a GET answered other than 200: "GET URL: 404 Not Found".
type statusError struct {
	url, status string
	code        int
}

func (e *statusError) Error() string { return "GET " + e.url + ": " + e.status }

// notFound reports whether err is a GET answered 404.
func notFound(err error) bool {
	var se *statusError
	return errors.As(err, &se) && se.code == http.StatusNotFound
}

// get GETs u and returns the body of a 200 answer.
func get(ctx context.Context, u string) (io.ReadCloser, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json, application/octet-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", u, err)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, &statusError{url: u, status: resp.Status, code: resp.StatusCode}
	}
	return resp.Body, nil
}

// unpack extracts an npm tarball (gzip, tar, every entry under one
// top-level folder, normally "package/") into dir, dropping that first
// path element and keeping permission bits.
func unpack(r io.Reader, dir string) error { return untar.Extract(r, dir, true, "package") }

// DefaultNodeDist is where EnsureRuntime downloads a Node.js release the npm
// registry lacks for this platform, unless NODEJS_ORG_MIRROR (the variable
// node-gyp and nvm read) names another copy of nodejs.org/dist.
const DefaultNodeDist = "https://nodejs.org/dist/"

// NodeDistPlatform is a nodejs.org/dist tarball's platform, "<os>-<arch>"
// (darwin/arm64 → "darwin-arm64", linux/amd64 → "linux-x64").
func NodeDistPlatform(goos, goarch string) string {
	if goarch == "amd64" {
		goarch = "x64"
	}
	return goos + "-" + goarch
}

// fetchNodeDist downloads node-vVERSION-PLATFORM.tar.gz from dist (a
// nodejs.org/dist base URL), checks its SHA-256 against SHASUMS256.txt
// beside it and unpacks it into dir. Errors name the tarball and the URL.
func fetchNodeDist(ctx context.Context, dist, version, platform, dir string) error {
	name := "node-v" + version + "-" + platform + ".tar.gz"
	base, err := url.JoinPath(dist, "v"+version)
	if err != nil {
		return fmt.Errorf("%s: mirror %q: %w", name, dist, err)
	}
	sumsURL, tarURL := base+"/SHASUMS256.txt", base+"/"+name
	body, err := get(ctx, sumsURL)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	sums, err := io.ReadAll(io.LimitReader(body, 1<<20))
	body.Close()
	if err != nil {
		return fmt.Errorf("%s: GET %s: %w", name, sumsURL, err)
	}
	want := ""
	for _, line := range strings.Split(string(sums), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[1] == name {
			want = f[0]
		}
	}
	if want == "" {
		return fmt.Errorf("%s: %s does not list it", name, sumsURL)
	}
	err = fetchTarball(ctx, tarURL, dir, sha256.New(), func(sum []byte) error {
		if got := hex.EncodeToString(sum); got != want {
			return fmt.Errorf("sha256 %s does not match SHASUMS256.txt's %s", got, want)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}
