package driver

import (
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/beff-suite/beff/harness"
	"github.com/beff-suite/beff/internal/clocks"
	"github.com/beff-suite/beff/suites/skampi"
)

// MaxPlanProcs is the most processes -skampi.plan-procs takes.
const MaxPlanProcs = 1 << 30

// planProcs is the process count the run is planned for: the job's, or
// -skampi.plan-procs with -skampi.plan.
func (f *flags) planProcs(job *harness.Job) (int, error) {
	n := *f.planFor
	switch {
	case n == 0 || harness.IsSet(f.fs, "skampi.plan-procs") && n == job.Procs():
		return job.Procs(), nil
	case !*f.plan:
		return 0, fmt.Errorf("-skampi.plan-procs=%d plans for another job size: give it with -skampi.plan (a dry run)", n)
	case n < 1 || n > MaxPlanProcs:
		return 0, fmt.Errorf("-skampi.plan-procs=%d: want a process count from 1 to %d", n, MaxPlanProcs)
	}
	return n, nil
}

// checkPoints refuses a point that MPI's C types cannot express (before
// anything runs, naming the suite) and notes the points max-buffer
// leaves out.
func (st *Settings) checkPoints() error {
	for _, c := range st.curves() {
		for _, p := range c.Grid() {
			if err := p.Check(); err != nil {
				return fmt.Errorf("%s: suite %s: %v: lower its lengths or process counts, or give it a max-buffer", st.File, c.Suite.Name, err)
			}
		}
		left := c.LeftOut()
		buf, slow := left.Buffer, left.Budget
		if buf > 0 {
			st.Notes = append(st.Notes, fmt.Sprintf("suite %s: %s: %d point%s above max-buffer (%d bytes of a buffer, the attached one included) left out",
				c.Suite.Name, curveText(c), buf, plural(buf), c.Suite.MaxBuffer))
		}
		if left.Count > 0 {
			st.Notes = append(st.Notes, fmt.Sprintf("suite %s: %s: %d point%s left out whose length passes 2^31−1 bytes, the most an int count holds (the large-count operations take more)",
				c.Suite.Name, curveText(c), left.Count, plural(left.Count)))
		}
		if left.Type > 0 {
			st.Notes = append(st.Notes, fmt.Sprintf("suite %s: %s: %d point%s left out whose datatype passes what MPI's ints hold on its processes",
				c.Suite.Name, curveText(c), left.Type, plural(left.Type)))
		}
		if slow > 0 {
			st.Notes = append(st.Notes, fmt.Sprintf("suite %s: %s: %d point%s left out whose one call the plan's model predicts longer than the budget of %s",
				c.Suite.Name, curveText(c), slow, plural(slow), skampi.DurationText(c.Suite.Rule.Budget)))
		}
	}
	return nil
}

// curveText names a curve in a note: its operation, and a typed
// suite's method.
func curveText(c skampi.Curve) string {
	if c.Method != "" {
		return skampi.Ops[c.Op].Name + " (" + c.Method + ")"
	}
	return skampi.Ops[c.Op].Name
}

// memLimit is the memory per process the run may use, MiB, and where the
// figure comes from.
func (f *flags) memLimit(job *harness.Job) (int64, string) {
	if *f.mem > 0 {
		return *f.mem, "-skampi.mem"
	}
	return job.MemMiB, fmt.Sprintf("the node's memory divided by its %d processes", job.ProcsNode)
}

// checkMemory refuses a run whose model needs more memory per process
// than it may use, before anything is allocated.
// Without -skampi.mem the job's one check of the node's memory decides
// (harness Job.CheckMemory).
func (f *flags) checkMemory(need skampi.Memory, job *harness.Job) error {
	const lower = "lower max-buffer or the lengths, or give -skampi.mem"
	if *f.mem == 0 {
		return job.CheckMemory("SKaMPI", need.RootProcess(), lower+" ("+need.String()+")")
	}
	if need.RootProcess() > *f.mem<<20 {
		return fmt.Errorf("SKaMPI needs %s, more than the %d MiB per process it may use (-skampi.mem): %s", need, *f.mem, lower)
	}
	return nil
}

// planText is the dry run's output: what a run measures before its
// first point and every planned point with their predicted times, each
// curve's and the run's total, the memory.
func (st *Settings) planText(f *flags, need skampi.Memory, job *harness.Job) string {
	m := skampi.Nominal
	var b strings.Builder
	fmt.Fprintf(&b, "SKaMPI plan for %d processes: %s, nothing measured\n", need.Processes, st.File)
	fmt.Fprintf(&b, "model: a message costs %.0f µs + its bytes at %.0f GB/s per process, a copy %.0f GB/s; a point is predicted at its bound (warm-up, repetitions until its budget or max-reps, %.0f ms of set-up)\n",
		m.Alpha*1e6, m.Beta/1e9, m.Copy/1e9, m.PointSetup*1e3)
	for _, n := range st.Notes {
		fmt.Fprintf(&b, "note: %s: not measured\n", n)
	}
	total := m.PrepareTime(need.Processes)
	rounds, tree := skampi.SearchRounds(need.Processes), clocks.Rounds(need.Processes)
	fmt.Fprintf(&b, "before the first point: %d round%s of the pair search, at most %d pairs re-timed; and over the run at most %d estimations of the clocks' model, %d round%s each: predicted at most %s\n",
		rounds, plural(rounds), skampi.RetimeLimit, clocks.Estimations, tree, plural(tree), seconds(total))
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	points, refined := 0, 0
	for _, c := range st.curves() {
		pc := m.PlanCurve(c)
		for _, p := range pc.Points {
			fmt.Fprintf(w, "%s\t  %s\n", seconds(p.Seconds), p.Name())
		}
		if pc.Refined > 0 {
			fmt.Fprintf(w, "%s\t  %s: up to %d refined lengths\n", seconds(pc.Seconds-sum(pc.Points)), c.Key(), pc.Refined)
		}
		total += pc.Seconds
		points += len(pc.Points)
		refined += pc.Refined
	}
	w.Flush()
	fmt.Fprintf(&b, "total: %d points and up to %d refined lengths, predicted at most %s\n", points, refined, time.Duration(total*float64(time.Second)).Round(time.Second))
	fmt.Fprintf(&b, "memory: %s\n", need)
	if limit, from := f.memLimit(job); limit > 0 {
		fmt.Fprintf(&b, "memory here: %d MiB per process (%s)\n", limit, from)
	}
	return b.String()
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func seconds(s float64) string { return fmt.Sprintf("%.3f s", s) }

func sum(pts []skampi.PlannedPoint) float64 {
	var t float64
	for _, p := range pts {
		t += p.Seconds
	}
	return t
}
