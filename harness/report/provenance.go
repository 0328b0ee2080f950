package report

import (
	"fmt"
	"strings"

	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/internal/words"
)

// Provenance is the line every report and site page opens with, so a
// figure read alone still says which run made the figures, when, from which commit and on what machine:
// "Run `ID`, 2026-12-05 06:15 UTC, commit `2ba518a0c1d2` +dirty, machine vm
// (AMD EPYC, 2 logical CPUs, kvm guest)." (the host name left out when
// unknown). A merged set lists its runs.
func Provenance(s *results.Set) string {
	if len(s.Runs) == 1 {
		f := s.Runs[0].File
		return fmt.Sprintf("Run `%s`, %s, %s, machine %s.", f.RunID, date(f), commitText(f.Source), machineText(f))
	}
	parts := make([]string, len(s.Runs))
	for i, r := range s.Runs {
		f := r.File
		parts[i] = fmt.Sprintf("%s: run `%s`, %s, %s, machine %s", r.Label, f.RunID, date(f), commitText(f.Source), machineText(f))
	}
	return fmt.Sprintf("%d runs merged: %s.", len(s.Runs), strings.Join(parts, "; "))
}

// commitText is "commit `SHORT`", with " +dirty" for a tree with changes, or
// "commit unknown" for a run that recorded none.
func commitText(src *results.Source) string {
	if src == nil {
		return "commit unknown"
	}
	out := "commit `" + words.Commit(src.Commit) + "`"
	if src.Dirty {
		out += " +dirty"
	}
	return out
}

// machineText names a run's machine: its host name, CPU model, logical CPUs
// and virtualization; in a two-host run the server host's.
func machineText(f *results.File) string {
	h := f.Host
	if f.ServerHost != nil {
		h = *f.ServerHost
	}
	facts := []string{words.OrDash(h.CPUModel), fmt.Sprintf("%d logical CPUs", h.LogicalCPUs)}
	if h.Virtual != "" {
		facts = append(facts, h.Virtual)
	}
	if h.Hostname == "" {
		return strings.Join(facts, ", ")
	}
	return fmt.Sprintf("%s (%s)", h.Hostname, strings.Join(facts, ", "))
}
