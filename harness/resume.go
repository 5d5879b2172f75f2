package harness

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/beff-suite/beff/internal/clocks"
	"github.com/beff-suite/beff/internal/results"
)

// A Resume is what a suite takes from the output of an earlier job of
// the same configuration (its -<suite>.resume flag): the lines it already
// holds, written again instead of measured. Counts, the same on every
// rank (part of the suite's broadcast settings), say how many lines of
// each name there are; rank 0 alone holds their metrics.
type Resume struct {
	File   string
	Bench  string
	Counts map[string]int // sub-benchmark name → lines saved
	Order  []string       // the names in the order of their first lines
	used   map[string]int
}

// ReadResume reads the partial output file for benchmark bench on rank 0
// (flag names the flag in errors) and checks it against the configuration
// of this run, which want returns (it may adopt settings from the file's
// configuration, e.g. a seed): every key of want, and every key of the
// file with one of the prefixes (the suite's), must be equal, in every
// configuration block of the file. A file without a line of bench is
// refused.
//
// check, when not nil, checks each line (its name and metrics by unit)
// before it is copied.
//
// The lines themselves stay with the job on rank 0 (Job.saved): the
// settings that carry a Resume to every rank (as JSON) do not carry them.
func (j *Job) ReadResume(flag, file, bench string, want func(file map[string]string) (map[string]string, error), check func(name string, m map[string]float64) error, prefixes ...string) (*Resume, error) {
	data, err := results.ReadInput(file)
	if err != nil {
		return nil, fmt.Errorf("-%s: %v", flag, err)
	}
	p, err := results.ReadPartial(bytes.NewReader(data), file, bench)
	if err != nil {
		return nil, fmt.Errorf("-%s: %v", flag, err)
	}
	w, err := want(p.Config)
	if err != nil {
		return nil, fmt.Errorf("-%s=%s: %v", flag, file, err)
	}
	if d := p.Differs(w, prefixes...); len(d) > 0 {
		return nil, fmt.Errorf("-%s=%s: not the configuration of this run:\n  %s", flag, file, strings.Join(d, "\n  "))
	}
	p.Points = slices.DeleteFunc(p.Points, func(s results.Saved) bool { return s.Name == clocks.ReportName }) // the clocks of a finished run
	saved := map[string][]results.Saved{}
	for _, s := range p.Points {
		if check != nil {
			if err := check(s.Name, s.Map()); err != nil {
				return nil, fmt.Errorf("-%s: %s:%d: Benchmark%s/%s: %v", flag, file, s.Line, bench, s.Name, err)
			}
		}
		saved[s.Name] = append(saved[s.Name], s)
	}
	if j.saved == nil {
		j.saved = map[string]map[string][]results.Saved{}
	}
	j.saved[bench] = saved
	r := &Resume{File: file, Bench: bench, Counts: p.Counts()}
	seen := map[string]bool{}
	for _, s := range p.Points {
		if !seen[s.Name] {
			seen[s.Name] = true
			r.Order = append(r.Order, s.Name)
		}
	}
	return r, nil
}

// Keep restricts the resume to the names keep accepts (a suite copies
// only the parts of its run that finished); nil when none is left.
func (r *Resume) Keep(keep func(name string) bool) *Resume {
	out := &Resume{File: r.File, Bench: r.Bench, Counts: map[string]int{}}
	for _, n := range r.Order {
		if keep(n) {
			out.Order = append(out.Order, n)
			out.Counts[n] = r.Counts[n]
		}
	}
	if out.Total() == 0 {
		return nil
	}
	return out
}

// ResumeWant is the part of the job a partial output must share to be
// resumed: the processes, hosts, MPI library, thread level and mode.
func (j *Job) ResumeWant() map[string]string {
	mode := results.ModeFull
	if j.Short {
		mode = results.ModeShort
	}
	return map[string]string{
		results.KeyProcs: strconv.Itoa(j.Procs()), results.KeyHosts: hostSummary(j.Hosts),
		results.KeyLibrary: j.Library, results.KeyThread: j.Thread, results.KeyMode: mode,
	}
}

// ResumeWantLines is ResumeWant with a suite's configuration lines
// ("key: value").
func (j *Job) ResumeWantLines(lines []string) map[string]string {
	w := j.ResumeWant()
	for _, l := range lines {
		k, v, _ := strings.Cut(l, ": ")
		w[k] = v
	}
	return w
}

// Next reports, the same on every rank, whether the next occurrence of
// the sub-benchmark name is saved (and so is written again, not
// measured); it counts the occurrence as used.
func (r *Resume) Next(name string) bool {
	if r == nil {
		return false
	}
	if r.used == nil {
		r.used = map[string]int{}
	}
	if r.used[name] >= r.Counts[name] {
		return false
	}
	r.used[name]++
	return true
}

// Write writes, on rank 0 of session s, the occurrence of name that Next
// has just granted as the sub-benchmark b (its metrics as saved, ns/op
// included), and returns its metrics by unit (nil on other ranks).
func (r *Resume) Write(b *testing.B, s *Session, name string) map[string]float64 {
	list := s.Job.saved[r.Bench][name]
	k := r.used[name] - 1
	if k < 0 || k >= len(list) {
		return nil
	}
	out := map[string]float64{}
	b.ReportMetric(0, "ns/op")
	for _, m := range list[k].Metrics {
		b.ReportMetric(m.Value, m.Unit)
		out[m.Unit] = m.Value
	}
	return out
}

// Describe is the value of a suite's configuration line <suite>-resumed.
func (r *Resume) Describe(what string) string {
	return fmt.Sprintf("%d %s copied from %s", r.Total(), what, r.File)
}

// Total is the number of lines to copy.
func (r *Resume) Total() int {
	n := 0
	for _, c := range r.Counts {
		n += c
	}
	return n
}
