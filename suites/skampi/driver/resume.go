package driver

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/beff-suite/beff/harness"
	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/suites/skampi"
)

// Resume is what -skampi.resume gives a run: the points of the curves a
// partial output finished, copied instead of measured, and the order of
// the curves (the one that was running when it stopped last).
type Resume struct {
	File   string
	Done   map[string][]skampi.Saved // curve key → its saved points
	Order  []string                  // curve keys
	Points int                       // saved points copied
}

// readResume reads the partial output on rank 0 and checks that it has
// the configuration of this run (want).
func readResume(file string, want map[string]string, curves []skampi.Curve) (*Resume, error) {
	data, err := results.ReadInput(file)
	if err != nil {
		return nil, fmt.Errorf("-skampi.resume: %v", err)
	}
	p, err := skampi.ReadPartial(bytes.NewReader(data), file)
	if err != nil {
		return nil, fmt.Errorf("-skampi.resume: %v", err)
	}
	if d := p.Differs(want); len(d) > 0 {
		return nil, fmt.Errorf("-skampi.resume=%s: not the configuration of this run:\n  %s", file, strings.Join(d, "\n  "))
	}
	r := &Resume{File: file}
	r.Done, r.Order = p.Plan(curves)
	for _, s := range r.Done {
		r.Points += len(s)
	}
	return r, nil
}

// want is the configuration a partial output must have to be resumed:
// the job's processes, hosts, MPI library and mode, and every suite.
func (st *Settings) want(job *harness.Job) map[string]string {
	w := job.ResumeWant()
	for _, s := range st.Suites {
		k, v := s.ConfigLine()
		w[k] = v
	}
	return w
}

// saved returns the saved points of a finished curve, nil for a curve to
// measure (and always without a resume).
func (r *Resume) saved(c skampi.Curve) []skampi.Saved {
	if r == nil {
		return nil
	}
	return r.Done[c.Key()]
}

// describe is the value of the configuration line skampi-resumed.
func (r *Resume) describe() string {
	return fmt.Sprintf("%d curves (%d points) copied from %s", len(r.Done), r.Points, r.File)
}

// order is the run's curves in the order to go through them: the suite
// file's, or the resume's.
func (st *Settings) order() []skampi.Curve {
	curves := st.curves()
	if st.Resume == nil {
		return curves
	}
	byKey := map[string]skampi.Curve{}
	for _, c := range curves {
		byKey[c.Key()] = c
	}
	out := make([]skampi.Curve, 0, len(curves))
	for _, k := range st.Resume.Order {
		out = append(out, byKey[k])
	}
	return out
}
