package run

import (
	"time"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/progress"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/suite"
	"github.com/tfbench/tfbench/harness/sweep"
)

// The run's progress (the ETA of progress.Step) and where its time went
// (results.Time), from the plan as it stands (plan.go).

// progress hands Config.Progress the shot about to be measured, with the
// plan's measuring time done and in all (planState.measuring).
func (r *runner) progress(t Target, test suite.Test, sh sweep.Shot, round int) {
	if r.cfg.Progress == nil {
		return
	}
	p := r.planState()
	done, total := p.measuring()
	var earlier []float64
	for _, s := range p.samples {
		if keyOf(s) == (shotKey{t.ID(), test.Name, sh.N, sh.Concurrency, sh.Rate}) {
			earlier = append(earlier, s.Window)
		}
	}
	r.cfg.Progress(progress.Step{
		ID: t.ID(), Test: test.Name, N: sh.N, Connections: sh.Concurrency, Rate: sh.Rate,
		Round: round, Rounds: r.cfg.Rounds, Shot: expectedWindow(test, earlier), Done: done, Total: total,
		Elapsed: time.Since(r.began), Measuring: time.Since(r.measuring) - time.Duration(r.spent.Verification*float64(time.Second)),
	})
}

// buildStep hands Config.Progress the build about to run: the ETA is then
// the builds left (each the mean of those done, else progress.BuildGuess)
// and the plan's longest measuring time (PlanSeconds) with
// progress.PriorOverhead.
func (r *runner) buildStep(t Target, builds int) {
	if r.cfg.Progress == nil {
		return
	}
	per := progress.BuildGuess
	if r.buildsDone > 0 {
		per = r.buildWall / time.Duration(r.buildsDone)
	}
	_, total := r.planState().measuring()
	r.cfg.Progress(progress.Step{
		ID: t.ID(), Build: t.Spec.Name, Builds: builds, BuildsDone: r.buildsDone,
		BuildsLeft: time.Duration(builds-r.buildsDone) * per, Total: total, Elapsed: time.Since(r.began),
	})
}

// planState is the run's plan as it stands: the targets not broken, the
// tests each measures, the samples so far.
func (r *runner) planState() planState {
	var ids []model.ID
	for _, t := range r.cfg.Targets {
		if _, bad := r.broken[t.ID()]; !bad {
			ids = append(ids, t.ID())
		}
	}
	return planState{
		tests: r.cfg.Tests, targets: ids, rounds: r.cfg.Rounds, samples: r.rec.File().Samples, warmed: r.warmed,
		skip: func(id model.ID, test string) bool { return r.failed[id][test] },
	}
}

// round1 is target id's round-1 samples of test (closed loop), what
// keptLevels decides later rounds by.
func (r *runner) round1(id model.ID, test string) []model.Sample {
	var out []model.Sample
	for _, s := range r.rec.File().Samples {
		if s.ID == id && s.Test == test && s.Round == 1 && s.Rate == 0 {
			out = append(out, s)
		}
	}
	return out
}

// sample records s with the run's time so far (results.Time).
func (r *runner) sample(s model.Sample) error {
	r.rec.SetTime(r.timeSpent())
	return r.rec.Sample(s)
}

// timeSpent is where the run's time went so far: Pauses is the rest (set-up,
// reading CPU, memory and render counts, opening connections, gaps).
func (r *runner) timeSpent() results.Time {
	t := r.spent
	t.Total = time.Since(r.began).Seconds()
	t.Pauses = max(0, t.Total-(t.Builds+t.RuntimeInstalls+t.ServerStarts+t.Verification+t.Warmups+t.Windows))
	return t
}
