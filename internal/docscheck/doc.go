// Package docscheck holds the test that keeps the repository's markdown
// honest: every relative link in README.md, docs/ and frameworks/engine/
// README.md names an existing file, and every file.md#anchor a heading of it.
// It has no code; run go test ./internal/docscheck.
package docscheck
