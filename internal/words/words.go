// Package words holds the few wording helpers the report, compare, history,
// results, sweep and run packages share: a counted noun, a dash for an empty
// cell and a commit hash shortened for tables.
package words

import "strconv"

// Plural writes a count with its noun, adding "s" unless n is 1:
// "1 round", "3 rounds", "0 rounds".
func Plural[N ~int | ~int64](n N, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.FormatInt(int64(n), 10) + " " + noun + "s"
}

// OrDash is s, or "—" (an em dash: nothing known) when s is empty.
func OrDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// Commit shortens a commit hash to its first 12 characters, as the
// report's and compare's provenance lines show it; shorter text is kept.
func Commit(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}
