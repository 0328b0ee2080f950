package docscheck

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode"
)

// moduleRoot walks up from the test's directory to the go.mod of the
// tfbench module.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && strings.HasPrefix(string(b), "module github.com/tfbench/tfbench\n") {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod of module github.com/tfbench/tfbench above the test's directory")
		}
		dir = parent
	}
}

// checkedFiles are the markdown files whose links the test checks, relative
// to the module root: README.md, every .md under docs/ and the engine's
// README.
func checkedFiles(t *testing.T, root string) []string {
	t.Helper()
	files := []string{"README.md", "frameworks/engine/README.md"}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "node_modules" {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".md") {
			rel, err := filepath.Rel(root, path)
			if err != nil {
				return err
			}
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files[2:])
	return files
}

// A link is one relative link of a markdown file: its 1-based line and its
// target as written.
type link struct {
	line   int
	target string
}

var (
	inlineLink = regexp.MustCompile(`\]\(\s*<?([^()\s<>]+)>?(?:\s+"[^"]*")?\s*\)`)
	refLink    = regexp.MustCompile(`^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$`)
	codeSpan   = regexp.MustCompile("`+[^`]*`+")
	heading    = regexp.MustCompile(`^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$`)
	htmlAnchor = regexp.MustCompile(`<a\s+(?:name|id)="([^"]+)"`)
)

// scan reads a markdown file and returns its links (outside fenced code
// blocks and code spans) and the anchors of its headings.
func scan(path string) (links []link, anchors map[string]bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	anchors = map[string]bool{}
	seen := map[string]int{}
	fence := ""
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		trimmed := strings.TrimLeft(line, " ")
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]) == "" {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			fence = trimmed[:3]
			continue
		}
		if m := heading.FindStringSubmatch(line); m != nil {
			slug := Slug(m[2])
			if k := seen[slug]; k > 0 {
				anchors[fmt.Sprintf("%s-%d", slug, k)] = true
			} else {
				anchors[slug] = true
			}
			seen[slug]++
		}
		for _, m := range htmlAnchor.FindAllStringSubmatch(line, -1) {
			anchors[m[1]] = true
		}
		text := codeSpan.ReplaceAllString(line, "")
		for _, m := range inlineLink.FindAllStringSubmatch(text, -1) {
			links = append(links, link{n, m[1]})
		}
		if m := refLink.FindStringSubmatch(text); m != nil {
			links = append(links, link{n, m[1]})
		}
	}
	return links, anchors, sc.Err()
}

var markdownLink = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)

// Slug is GitHub's anchor for a heading's text: markdown links reduced to
// their text, lower case, every character but letters, digits, spaces,
// hyphens and underscores dropped, spaces turned into hyphens.
func Slug(text string) string {
	text = markdownLink.ReplaceAllString(text, "$1")
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestSlug(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"The two commands", "the-two-commands"},
		{"framework.yaml (schema 1)", "frameworkyaml-schema-1"},
		{"A/B a change", "ab-a-change"},
		{"The load generator against wrk, 2026-12-02", "the-load-generator-against-wrk-2026-12-02"},
		{"json — `/json`", "json--json"},
		{"Published experiments rerun with `tfbench ab`, 2026-12-02", "published-experiments-rerun-with-tfbench-ab-2026-12-02"},
		{"What a sleeping generator costs the server (issue 13)", "what-a-sleeping-generator-costs-the-server-issue-13"},
		{"suites/ssr.yaml", "suitesssryaml"},
		{"See [docs](docs/x.md) here", "see-docs-here"},
	} {
		if got := Slug(c.in); got != c.want {
			t.Errorf("Slug(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestDocLinks checks that every relative link of README.md, docs/**/*.md
// and frameworks/engine/README.md resolves: the file or folder exists, and a
// #anchor into a markdown file (or into the file itself) names one of its
// headings. http(s) and mailto links are not fetched.
func TestDocLinks(t *testing.T) {
	root := moduleRoot(t)
	anchorsOf := map[string]map[string]bool{}
	anchors := func(rel string) (map[string]bool, error) {
		if a, ok := anchorsOf[rel]; ok {
			return a, nil
		}
		_, a, err := scan(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			return nil, err
		}
		anchorsOf[rel] = a
		return a, nil
	}
	checked := 0
	for _, file := range checkedFiles(t, root) {
		links, own, err := scan(filepath.Join(root, filepath.FromSlash(file)))
		if err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		anchorsOf[file] = own
		for _, l := range links {
			target := l.target
			if i := strings.Index(target, ":"); i > 0 && !strings.ContainsAny(target[:i], "/#.") {
				continue // a scheme: https:, mailto:
			}
			checked++
			path, anchor, _ := strings.Cut(target, "#")
			rel := file
			if path != "" {
				if strings.HasPrefix(path, "/") {
					t.Errorf("%s:%d: link %q: absolute path; write it relative to %s", file, l.line, target, file)
					continue
				}
				rel = filepath.ToSlash(filepath.Clean(filepath.Join(filepath.Dir(file), filepath.FromSlash(path))))
				if rel == ".." || strings.HasPrefix(rel, "../") {
					t.Errorf("%s:%d: link %q: leaves the repository", file, l.line, target)
					continue
				}
				if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel))); err != nil {
					t.Errorf("%s:%d: link %q: %s does not exist", file, l.line, target, rel)
					continue
				}
			}
			if anchor == "" || !strings.HasSuffix(rel, ".md") {
				continue
			}
			a, err := anchors(rel)
			if err != nil {
				t.Errorf("%s:%d: link %q: %v", file, l.line, target, err)
				continue
			}
			if !a[anchor] {
				t.Errorf("%s:%d: link %q: no heading of %s has the anchor #%s", file, l.line, target, rel, anchor)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no relative links found: the scan is broken")
	}
}
