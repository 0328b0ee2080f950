// Package layoutcheck holds one test: every harness package imports only
// packages that docs/layout.md's Layout table lists above it (harness/model at
// the bottom), so the table's order is the import order and the two cannot drift.
package layoutcheck
