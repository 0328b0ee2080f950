package untar

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// entry is one tar entry: a file (body), a folder (dir), a symbolic link
// (link) or a hard link (hard).
type entry struct {
	name, body, link, hard string
	dir                    bool
	mode                   int64
}

// tgz is a gzipped tar of entries in order.
func tgz(t *testing.T, entries ...entry) *bytes.Reader {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, e := range entries {
		h := &tar.Header{Name: e.name, Mode: e.mode, Size: int64(len(e.body)), Typeflag: tar.TypeReg}
		if h.Mode == 0 {
			h.Mode = 0o644
		}
		switch {
		case e.dir:
			h.Typeflag, h.Mode = tar.TypeDir, 0o755
		case e.link != "":
			h.Typeflag, h.Linkname = tar.TypeSymlink, e.link
		case e.hard != "":
			h.Typeflag, h.Linkname = tar.TypeLink, e.hard
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(e.body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return bytes.NewReader(buf.Bytes())
}

// tree lists every path under dir (slash-separated, sorted), links with
// " -> target", files with ": body".
func tree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case d.Type()&os.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			rel += " -> " + target
		case d.IsDir():
			rel += "/"
		default:
			b, _ := os.ReadFile(p)
			rel += ": " + string(b)
		}
		out = append(out, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestExtractRefuses: each archive is refused with an error naming its
// entry, and nothing lands beside the target folder (dir/target holds the
// archive; dir is checked to hold only it afterwards).
func TestExtractRefuses(t *testing.T) {
	for _, c := range []struct {
		name    string
		strip   bool
		entries []entry
		want    string
	}{
		{"chain of links to the parent", true, []entry{
			{name: "package/s/u", link: ".."},
			{name: "package/s/u/x", link: ".."},
			{name: "package/s/u/x/f", body: "escaped"},
		}, `entry "package/s/u/x" passes through the symbolic link "package/s/u"`},
		{"file through a link inside", false, []entry{
			{name: "sub/", dir: true},
			{name: "l", link: "sub"},
			{name: "l/f", body: "through the link"},
		}, `entry "l/f" passes through the symbolic link "l"`},
		{"file over a link", false, []entry{
			{name: "t", body: "target"},
			{name: "l", link: "t"},
			{name: "l", body: "over the link"},
		}, `entry "l" passes through the symbolic link "l"`},
		{"folder over a link", false, []entry{
			{name: "l", link: "."},
			{name: "l/", dir: true},
		}, `entry "l/" passes through the symbolic link "l"`},
		{"dot-dot after a name through a link", false, []entry{
			{name: "a", link: "."},
			{name: "b", link: "a/../f"},
		}, `symbolic link "b" -> "a/../f" refused: ".." after a name can lead outside the folder`},
		{"link climbing out", true, []entry{
			{name: "package/bin/x", link: "../../etc/passwd"},
		}, `symbolic link "package/bin/x" -> "../../etc/passwd" points outside the package`},
		{"absolute link", false, []entry{
			{name: "bin/y", link: "/etc/passwd"},
		}, `symbolic link "bin/y" -> "/etc/passwd" points outside the folder`},
		{"hard link outside", false, []entry{
			{name: "h", hard: "/etc/passwd"},
		}, `hard link "h" -> "/etc/passwd" refused: only files, folders and symbolic links are unpacked`},
		{"hard link inside", false, []entry{
			{name: "f", body: "x"},
			{name: "h", hard: "f"},
		}, `hard link "h" -> "f" refused: only files, folders and symbolic links are unpacked`},
		{"dot-dot name", false, []entry{
			{name: "../f", body: "escaped"},
		}, `entry "../f" lies outside the folder`},
		{"dot-dot name after the dropped folder", true, []entry{
			{name: "package/../../f", body: "escaped"},
		}, `entry "package/../../f" lies outside the package`},
		{"absolute name", false, []entry{
			{name: "/f", body: "escaped"},
		}, `entry "/f" lies outside the folder`},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			within := "folder"
			if c.strip {
				within = "package"
			}
			err := Extract(tgz(t, c.entries...), filepath.Join(dir, "target"), c.strip, within)
			if err == nil || err.Error() != c.want {
				t.Errorf("Extract: %v\nwant %q", err, c.want)
			}
			var outside []string
			for _, p := range tree(t, dir) {
				if p != "target/" && !bytes.HasPrefix([]byte(p), []byte("target/")) {
					outside = append(outside, p)
				}
			}
			if len(outside) > 0 {
				t.Errorf("written beside the target folder: %q", outside)
			}
		})
	}
}

// TestExtractRelease unpacks a Node.js release's shape (nodejs.org): the
// top folder dropped, executables, links into lib/ made before their
// targets, npm's node_modules/.bin links; every link reads its target.
func TestExtractRelease(t *testing.T) {
	top := "node-v24.22.3-linux-x64/"
	dir := filepath.Join(t.TempDir(), "node")
	err := Extract(tgz(t,
		entry{name: top, dir: true},
		entry{name: top + "bin/", dir: true},
		entry{name: top + "bin/node", body: "#!/bin/sh\n", mode: 0o755},
		entry{name: top + "bin/npm", link: "../lib/node_modules/npm/bin/npm-cli.js"},
		entry{name: top + "bin/npx", link: "../lib/node_modules/npm/bin/npx-cli.js"},
		entry{name: top + "lib/node_modules/npm/bin/npm-cli.js", body: "npm", mode: 0o755},
		entry{name: top + "lib/node_modules/npm/bin/npx-cli.js", body: "npx", mode: 0o755},
		entry{name: top + "lib/node_modules/npm/node_modules/.bin/semver", link: "../semver/bin/semver.js"},
		entry{name: top + "lib/node_modules/npm/node_modules/semver/bin/semver.js", body: "semver"},
		entry{name: top + "./include/./node/v8.h", body: "v8"},
		entry{name: top + "bin/node", body: "#!/bin/sh\n# again\n", mode: 0o755},
	), dir, true, "package")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"bin/",
		"bin/node: #!/bin/sh\n# again\n",
		"bin/npm -> ../lib/node_modules/npm/bin/npm-cli.js",
		"bin/npx -> ../lib/node_modules/npm/bin/npx-cli.js",
		"include/",
		"include/node/",
		"include/node/v8.h: v8",
		"lib/",
		"lib/node_modules/",
		"lib/node_modules/npm/",
		"lib/node_modules/npm/bin/",
		"lib/node_modules/npm/bin/npm-cli.js: npm",
		"lib/node_modules/npm/bin/npx-cli.js: npx",
		"lib/node_modules/npm/node_modules/",
		"lib/node_modules/npm/node_modules/.bin/",
		"lib/node_modules/npm/node_modules/.bin/semver -> ../semver/bin/semver.js",
		"lib/node_modules/npm/node_modules/semver/",
		"lib/node_modules/npm/node_modules/semver/bin/",
		"lib/node_modules/npm/node_modules/semver/bin/semver.js: semver",
	}
	if got := tree(t, dir); !slices.Equal(got, want) {
		t.Errorf("unpacked:\n%q\nwant\n%q", got, want)
	}
	for link, body := range map[string]string{"bin/npm": "npm", "lib/node_modules/npm/node_modules/.bin/semver": "semver"} {
		if b, err := os.ReadFile(filepath.Join(dir, link)); err != nil || string(b) != body {
			t.Errorf("%s reads %q, %v; want %q", link, b, err, body)
		}
	}
	for name, mode := range map[string]os.FileMode{"bin/node": 0o755, "include/node/v8.h": 0o644} {
		if info, err := os.Stat(filepath.Join(dir, name)); err != nil || info.Mode().Perm() != mode {
			t.Errorf("%s: %v, %v; want mode %v", name, info.Mode(), err, mode)
		}
	}
}

// TestExtractGitArchive: git archive opens with a pax global header (the
// commit ID, for the whole archive); it is no file and is skipped.
func TestExtractGitArchive(t *testing.T) {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	hdrs := []*tar.Header{
		{Typeflag: tar.TypeXGlobalHeader, Name: "pax_global_header", PAXRecords: map[string]string{"comment": "0cf4499"}},
		{Typeflag: tar.TypeDir, Name: "frameworks/", Mode: 0o755},
		{Typeflag: tar.TypeReg, Name: "frameworks/main.go", Mode: 0o644, Size: 4},
	}
	for _, h := range hdrs {
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := tw.Write([]byte("main")); err != nil {
		t.Fatal(err)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := Extract(bytes.NewReader(buf.Bytes()), dir, false, "archive"); err != nil {
		t.Fatal(err)
	}
	if got, want := tree(t, dir), []string{"frameworks/", "frameworks/main.go: main"}; !slices.Equal(got, want) {
		t.Errorf("unpacked %q, want %q", got, want)
	}
}
