// Package docscheck holds the test that keeps the repository's markdown
// honest: every relative link in README.md, docs/ and
// frameworks/engine/README.md names a file that exists, and every
// file.md#anchor a heading of that file (issue 19, item 5). It has no code
// of its own; run it with go test ./internal/docscheck.
package docscheck
