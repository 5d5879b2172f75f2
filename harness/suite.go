package harness

import (
	"encoding/json"
	"fmt"

	"github.com/beff-suite/beff/internal/results"
)

// A Suite is a suite's MPI side, typed by its settings S: what rank 0
// decides in Setup is what Prepare, Config and the benchmark body get, so
// that a wiring mistake does not compile. NewDriver turns it into the
// harness's Driver.
type Suite[S any] struct {
	// ID names the suite (see Driver.ID).
	ID *results.Identity
	// CheckFlags, when set, checks what of the flags needs no job (see
	// Driver.CheckFlags).
	CheckFlags func() error
	// Setup runs on rank 0 after the job is known: it checks the flags
	// and decides the settings, or says why the job stops (a *Done ends
	// it without measuring).
	Setup func(job *Job) (S, error)
	// Prepare, when set, runs on every rank after Setup's settings are
	// broadcast: collective measurements the configuration reports; it
	// returns the settings to keep, the same on every rank.
	Prepare func(s *Session, st S) S
	// Config returns the configuration lines of the settings.
	Config func(job *Job, st S) []string
}

// A Settings is the handle of a suite's decided settings.
type Settings[S any] struct {
	key    string
	config func(job *Job, st S) []string
}

// NewDriver makes a suite's untyped driver, which the binary's main hands
// to Main, and the handle that reads its settings in the benchmark body.
func NewDriver[S any](su Suite[S]) (*Driver, Settings[S]) {
	h := Settings[S]{su.ID.Key, su.Config}
	d := &Driver{ID: su.ID, CheckFlags: su.CheckFlags, Config: h.Lines,
		Setup: func(job *Job) (any, error) { return su.Setup(job) }}
	if su.Prepare != nil {
		d.Prepare = func(s *Session) any {
			st, err := h.Of(s)
			s.Must("reading the settings of "+su.ID.Name, err)
			return su.Prepare(s, st)
		}
	}
	return d, h
}

// Lines are the configuration lines of the job's settings of the suite
// (none when the job has none).
func (h Settings[S]) Lines(job *Job) []string {
	st, err := h.ofJob(job)
	if err != nil {
		return nil
	}
	return h.config(job, st)
}

// Of is the settings of the session's job.
func (h Settings[S]) Of(s *Session) (S, error) { return h.ofJob(&s.Job) }

func (h Settings[S]) ofJob(job *Job) (S, error) {
	var st S
	raw, ok := job.SuiteState[h.key]
	if !ok {
		return st, fmt.Errorf("no settings for suite %q", h.key)
	}
	return st, json.Unmarshal(raw, &st)
}
