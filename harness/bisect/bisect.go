// Package bisect finds the first commit between a good and a bad one whose
// build of an adapter is slower on one test (tfbench bisect):
// the range's commits collapse to those that change the adapter's tree, and a
// binary search A/Bs good's build against each midpoint's (a Measure, in
// production tfbench ab's rank test), ⌈log2 n⌉ steps after the confirming one.
package bisect

import (
	"context"
	"fmt"
	"strings"

	"github.com/tfbench/tfbench/harness/compare"
	"github.com/tfbench/tfbench/harness/model"
)

// Schema is bisect.json's schema version.
const Schema = 1

// Statuses of a Result.
const (
	Running     = "running"     // steps still to come
	Found       = "found"       // Culprit is the first bad commit
	NotSlower   = "not slower"  // BAD is not slower than GOOD: nothing to bisect
	Undecided   = "undecided"   // a step had no verdict twice: Left holds the range left
	Unchanged   = "unchanged"   // the adapter's tree is the same at GOOD and BAD
	Failed      = "failed"      // a step could not measure (Message says why)
	Interrupted = "interrupted" // stopped by a signal (set by the caller: Search returned the error)
)

// Outcome is one A/B of good's build (base) against a commit's (new) on the
// test: the rank test's verdict, the ratio of the two sides' median RPS at
// their peak level (new ÷ base), the rank test's two-sided p, the run's ID
// and the verdict's reason.
type Outcome struct {
	Verdict compare.Verdict `json:"verdict"`
	Ratio   float64         `json:"ratio"`
	P       float64         `json:"p"`
	RunID   string          `json:"run_id"`
	Why     string          `json:"why,omitempty"`
}

// Measure A/Bs good's tree against c's tree in rounds interleaved rounds.
type Measure func(ctx context.Context, c Commit, rounds int) (Outcome, error)

// Step is one row of the step table: step 0 confirms BAD against GOOD, the
// others test a midpoint; a retry (twice the rounds after no verdict) has
// its step's number. Files counts the adapter files the commit changed (step
// 0: over the whole range); Bad says what the step concluded of the commit.
type Step struct {
	Step    int    `json:"step"`
	Commit  Commit `json:"commit"`
	Files   int    `json:"files"`
	Rounds  int    `json:"rounds"`
	Retry   bool   `json:"retry,omitempty"`
	Outcome        // verdict, ratio, p, run ID
	Bad     *bool  `json:"bad,omitempty"` // nil: no verdict
	Profile bool   `json:"profile,omitempty"`
}

// Result is a bisect as far as it went: bisect.json holds it as is and
// bisect.md renders it; both are rewritten after every step.
type Result struct {
	Schema  int    `json:"schema"`
	Status  string `json:"status"`
	Adapter string `json:"adapter"` // NAME:VARIANT
	Test    string `json:"test"`
	N       int    `json:"n,omitempty"`
	// Paths are the tree key's paths (frameworks/NAME).
	Paths   []string        `json:"paths"`
	Suite   string          `json:"suite"`
	Rounds  int             `json:"rounds"`
	Options compare.Options `json:"options"`
	Good    Commit          `json:"good"`
	Bad     Commit          `json:"bad"`
	// Commits is the number of commits in GOOD..BAD; Candidates those that
	// change the adapter's tree, oldest first.
	Commits    int      `json:"commits"`
	Candidates []Commit `json:"candidates"`
	Steps      []Step   `json:"steps"`
	// Message is the outcome in words (the verdict paragraph).
	Message string `json:"message"`
	// Culprit is the first bad commit and Parent the commit whose tree came
	// before it (a candidate or GOOD), when Status is Found.
	Culprit *Commit `json:"culprit,omitempty"`
	Parent  *Commit `json:"parent,omitempty"`
	// Bump lists the dependency versions the culprit moved when every
	// adapter file it changed is a lockfile or manifest; nil otherwise.
	Bump *Bump `json:"dependency_bump,omitempty"`
	// Left is the range still undecided (Status Undecided): the candidates
	// one of which is the first bad commit.
	Left []Commit `json:"left,omitempty"`
	// Profile is the profiled last step's diff (markdown), or ProfileError
	// why there is none.
	Profile      string `json:"profile_diff,omitempty"`
	ProfileError string `json:"profile_error,omitempty"`
	// Commands reproduce the result locally.
	Commands []string `json:"commands,omitempty"`
	// Out is the output folder (Run's), not written.
	Out string `json:"-"`
}

// New starts a Result for a range (good, list from Git.Range).
func New(adapter, test string, n int, paths []string, good Commit, list []Commit) *Result {
	r := &Result{Schema: Schema, Status: Running, Adapter: adapter, Test: test, N: n, Paths: paths,
		Good: good, Commits: len(list), Candidates: Candidates(good, list)}
	r.Bad = good
	if len(list) > 0 {
		r.Bad = list[len(list)-1]
	}
	return r
}

// Search runs the bisect of r (made by New) with rounds rounds a step: step 0
// A/Bs BAD's tree against GOOD's and stops unless it is slower; then a binary
// search over r.Candidates, a midpoint slower than GOOD being bad. A step
// without a verdict is retried once with twice the rounds, then the search
// stops with the range left. update (may be nil) is called after every step
// and at the end; its error ends the search. A measure error ends it too
// (Status Failed) and is returned.
func Search(ctx context.Context, r *Result, rounds int, measure Measure, update func(*Result) error) error {
	r.Rounds = rounds
	save := func() error {
		if update == nil {
			return nil
		}
		return update(r)
	}
	n := len(r.Candidates)
	if n == 0 || r.Bad.Key == r.Good.Key {
		r.Status = Unchanged
		what := "did not change"
		if n > 0 {
			what = fmt.Sprintf("is the same at both ends (%d commits changed it and back)", n)
		}
		outside := "the harness, the runner, go-stdlib or the dataset"
		if name, _, _ := strings.Cut(r.Adapter, ":"); name == model.Reference.Framework {
			outside = "the harness, the runner or the dataset"
		}
		r.Message = fmt.Sprintf("The adapter %s %s between GOOD %s and BAD %s: the change is outside %s (%s).",
			strings.Join(r.Paths, ", "), what, r.Good.Short, r.Bad.Short, strings.Join(r.Paths, ", "), outside)
		return save()
	}
	var all []string
	seen := map[string]bool{}
	for _, c := range r.Candidates {
		for _, f := range c.Files {
			if !seen[f] {
				seen[f] = true
				all = append(all, f)
			}
		}
	}
	bad, err := r.step(ctx, 0, r.Bad, len(all), rounds, measure, save)
	if err != nil {
		return err
	}
	switch {
	case bad == nil:
		r.Status = Undecided
		r.Left = r.Candidates
		r.Message = fmt.Sprintf("BAD %s against GOOD %s on %s gave no verdict, also with %d rounds: %s. Nothing was bisected.",
			r.Bad.Short, r.Good.Short, r.testName(), 2*rounds, last(r.Steps).Why)
		return save()
	case !*bad:
		s := last(r.Steps)
		r.Status = NotSlower
		r.Message = fmt.Sprintf("BAD %s is not slower than GOOD %s on %s (verdict %s, ratio %.3f): nothing to bisect.", r.Bad.Short, r.Good.Short, r.testName(), s.Verdict, s.Ratio)
		return save()
	}
	lo, hi := -1, n-1 // lo's tree is good (-1: GOOD), hi's bad
	for k := 1; hi-lo > 1; k++ {
		mid := lo + (hi-lo)/2
		c := r.Candidates[mid]
		bad, err := r.step(ctx, k, c, len(c.Files), rounds, measure, save)
		if err != nil {
			return err
		}
		if bad == nil {
			r.Status = Undecided
			r.Left = r.Candidates[lo+1 : hi+1]
			r.Message = fmt.Sprintf("Step %d (%s) gave no verdict, also with %d rounds: %s. The first bad commit is one of the %d commits after %s up to %s that change the adapter: %s.",
				k, c.Short, 2*rounds, last(r.Steps).Why, len(r.Left), r.before(lo).Short, r.Candidates[hi].Short, shorts(r.Left))
			return save()
		}
		if *bad {
			hi = mid
		} else {
			lo = mid
		}
	}
	culprit, parent := r.Candidates[hi], r.before(lo)
	r.Status, r.Culprit, r.Parent = Found, &culprit, &parent
	r.Message = fmt.Sprintf("The first bad commit is %s %q (author date %s): its %s is slower than GOOD %s's on %s; the tree before it (%s) is not.",
		culprit.Short, culprit.Subject, culprit.Date.UTC().Format("2006-01-02 15:04 UTC"), strings.Join(r.Paths, ", "), r.Good.Short, r.testName(), parent.Short)
	return save()
}

// step measures c, retrying once with twice the rounds without a verdict,
// and records each A/B as a row. It returns whether c is bad (nil: no
// verdict twice).
func (r *Result) step(ctx context.Context, k int, c Commit, files, rounds int, measure Measure, save func() error) (*bool, error) {
	for i, n := range []int{rounds, 2 * rounds} {
		out, err := measure(ctx, c, n)
		if err != nil {
			r.Status = Failed
			r.Message = fmt.Sprintf("Step %d (%s) failed: %v", k, c.Short, err)
			return nil, joinSave(fmt.Errorf("step %d (%s): %w", k, c.Short, err), save)
		}
		s := Step{Step: k, Commit: c, Files: files, Rounds: n, Retry: i > 0, Outcome: out}
		if out.Verdict != compare.Unknown {
			bad := out.Verdict == compare.Slower
			s.Bad = &bad
		}
		r.Steps = append(r.Steps, s)
		if err := save(); err != nil {
			return nil, err
		}
		if s.Bad != nil {
			return s.Bad, nil
		}
	}
	return nil, nil
}

func joinSave(err error, save func() error) error {
	if serr := save(); serr != nil {
		return fmt.Errorf("%w; and writing the result: %v", err, serr)
	}
	return err
}

// before is the commit whose tree candidate i has: GOOD for -1.
func (r *Result) before(i int) Commit {
	if i < 0 {
		return r.Good
	}
	return r.Candidates[i]
}

func (r *Result) testName() string { return model.Label(r.Test, r.N) }

func last(s []Step) Step { return s[len(s)-1] }

func shorts(cs []Commit) string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Short)
	}
	return strings.Join(out, ", ")
}
