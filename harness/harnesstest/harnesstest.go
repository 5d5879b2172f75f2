// Package harnesstest runs code written for the harness — a suite's
// decisions, its stop loops, its protocols of collective calls — on a job
// of n simulated processes inside one test process: each rank is a
// goroutine with a session of its own (harness.NewFakeSession), and
// their collective calls meet in memory. The contract of the suites holds
// here as under mpirun, and more strictly: every rank must make the same
// collective call with the same root, or the job fails with a message
// naming the ranks that diverged (where MPI would hang), and a rank that
// fails or stops ends the job too.
package harnesstest

import (
	"encoding/binary"
	"flag"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/beff-suite/beff/harness"
	"github.com/beff-suite/beff/internal/mpi"
)

// An End is how a simulated rank ended: by returning (Code 0, Msg ""),
// or with the exit code and message of its Stop, Fail or Abort, or of
// the world's failure when another rank diverged or ended.
type End struct {
	Code int
	Msg  string
}

// Diverged is the exit code of a rank whose job ended because the ranks
// did not make the same collective call.
const Diverged = 99

// Run runs body on every rank of a job of n processes and returns how
// each ended. job is every rank's Job; its Hosts, when empty, become n
// hosts "h0"… . A rank's body returns, or ends as a real process would
// (Session.Stop, Fail, Abort); then the others cannot go on and end too.
func Run(t testing.TB, n int, job harness.Job, body func(s *harness.Session)) []End {
	t.Helper()
	if len(job.Hosts) == 0 {
		for r := range n {
			job.Hosts = append(job.Hosts, fmt.Sprintf("h%d", r))
		}
	}
	w := newWorld(n)
	ends := make([]End, n)
	var wg sync.WaitGroup
	for r := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ended := func(code int, msg string) {
				ends[r] = End{code, msg}
				w.fail(fmt.Sprintf("rank %d ended (exit %d): %s", r, code, msg))
			}
			defer func() {
				if p := recover(); p != nil {
					if d, ok := p.(divergence); ok {
						ends[r] = End{Diverged, string(d)}
						return
					}
					ends[r] = End{-1, fmt.Sprint("panic: ", p)}
					w.fail(fmt.Sprintf("rank %d panicked: %v", r, p))
				}
			}()
			body(harness.NewFakeSession(r, n, job, w.rank(r), ended))
			w.finish(r)
		}()
	}
	wg.Wait()
	return ends
}

// Fine fails t unless every rank's body returned.
func Fine(t testing.TB, ends []End) {
	t.Helper()
	for r, e := range ends {
		if e != (End{}) {
			t.Errorf("rank %d: exit %d: %s", r, e.Code, e.Msg)
		}
	}
}

// divergence is what a rank panics with when the job cannot go on.
type divergence string

// A world is the meeting place of the simulated ranks: each collective
// call is an exchange in which every rank leaves its call's name and its
// bytes and, once all have come, takes all of them.
type world struct {
	mu     sync.Mutex
	cond   *sync.Cond
	n      int
	gen    int
	calls  []string
	in     [][]byte
	come   int
	out    [][]byte
	done   int // ranks whose body returned
	broken string
}

func newWorld(n int) *world {
	w := &world{n: n, calls: make([]string, n), in: make([][]byte, n)}
	w.cond = sync.NewCond(&w.mu)
	return w
}

// fail ends the world: every rank waiting, and every rank that comes,
// ends with why.
func (w *world) fail(why string) {
	w.mu.Lock()
	if w.broken == "" {
		w.broken = why
	}
	w.cond.Broadcast()
	w.mu.Unlock()
}

// finish says that rank r's body returned: a call that the others wait
// in can no longer complete.
func (w *world) finish(r int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.done++
	if w.come > 0 && w.broken == "" {
		w.broken = w.stranded(r)
		w.cond.Broadcast()
	}
}

// stranded says which calls wait for rank r, which returned.
func (w *world) stranded(r int) string {
	var waiting []string
	for q, c := range w.calls {
		if c != "" {
			waiting = append(waiting, fmt.Sprintf("rank %d: %s", q, c))
		}
	}
	return fmt.Sprintf("the ranks diverged: rank %d returned while %s", r, strings.Join(waiting, "; "))
}

// exchange is one collective call of rank r: call names it (with its
// root), b is r's contribution; it returns every rank's.
func (w *world) exchange(r int, call string, b []byte) [][]byte {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.broken != "" {
		panic(divergence(w.broken))
	}
	gen := w.gen
	w.calls[r], w.in[r] = call, append([]byte(nil), b...)
	if w.come++; w.done > 0 {
		w.broken = fmt.Sprintf("the ranks diverged: rank %d called %s after %d rank(s) returned", r, call, w.done)
		w.cond.Broadcast()
		panic(divergence(w.broken))
	}
	if w.come == w.n {
		if why := w.check(); why != "" {
			w.broken = why
			w.cond.Broadcast()
			panic(divergence(why))
		}
		w.out, w.in, w.calls = w.in, make([][]byte, w.n), make([]string, w.n)
		w.come = 0
		w.gen++
		w.cond.Broadcast()
		return w.out
	}
	for w.gen == gen && w.broken == "" {
		w.cond.Wait()
	}
	if w.gen == gen {
		panic(divergence(w.broken))
	}
	return w.out
}

// check says how the calls of one exchange differ, "" when they agree.
func (w *world) check() string {
	var odd []string
	for r, c := range w.calls {
		if c != w.calls[0] {
			odd = append(odd, fmt.Sprintf("rank %d: %s", r, c))
		}
	}
	if len(odd) == 0 {
		return ""
	}
	return fmt.Sprintf("the ranks diverged: rank 0: %s; %s", w.calls[0], strings.Join(odd, "; "))
}

// rank is the collectives of rank r.
func (w *world) rank(r int) harness.Collectives { return &rankComm{w, r} }

// rankComm is one rank's side of the world: mpi.Comm's calls in memory.
type rankComm struct {
	w *world
	r int
}

func (c *rankComm) Barrier() error { c.w.exchange(c.r, "barrier", nil); return nil }
func (c *rankComm) QuietBarrier(poll time.Duration) error {
	c.w.exchange(c.r, "barrier", nil)
	return nil
}

func (c *rankComm) BcastBytes(buf []byte, root int) error {
	all := c.w.exchange(c.r, fmt.Sprintf("bcast of %d bytes from %d", len(buf), root), buf)
	copy(buf, all[root])
	return nil
}

func (c *rankComm) ReduceFloat64(in, out []float64, op mpi.ReduceOp, root int) error {
	all := c.w.exchange(c.r, fmt.Sprintf("reduce of %d float64 (%v) to %d", len(in), op, root), floats(in))
	if c.r == root {
		reduce(out, all, op, func(b []byte) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(b)) })
	}
	return nil
}

func (c *rankComm) ReduceInt64(in, out []int64, op mpi.ReduceOp, root int) error {
	all := c.w.exchange(c.r, fmt.Sprintf("reduce of %d int64 (%v) to %d", len(in), op, root), ints(in))
	if c.r == root {
		reduce(out, all, op, func(b []byte) int64 { return int64(binary.LittleEndian.Uint64(b)) })
	}
	return nil
}

func (c *rankComm) AllreduceInt64(in, out []int64, op mpi.ReduceOp) error {
	all := c.w.exchange(c.r, fmt.Sprintf("allreduce of %d int64 (%v)", len(in), op), ints(in))
	reduce(out, all, op, func(b []byte) int64 { return int64(binary.LittleEndian.Uint64(b)) })
	return nil
}

func (c *rankComm) GatherBytes(in, out []byte, root int) error {
	all := c.w.exchange(c.r, fmt.Sprintf("gather of %d bytes to %d", len(in), root), in)
	if c.r == root {
		for r, b := range all {
			copy(out[r*len(in):], b)
		}
	}
	return nil
}

func (c *rankComm) ScatterBytes(in, out []byte, root int) error {
	all := c.w.exchange(c.r, fmt.Sprintf("scatter of %d bytes from %d", len(out), root), in)
	copy(out, all[root][c.r*len(out):])
	return nil
}

func floats(v []float64) []byte {
	b := make([]byte, 8*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(x))
	}
	return b
}

func ints(v []int64) []byte {
	b := make([]byte, 8*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint64(b[8*i:], uint64(x))
	}
	return b
}

// reduce combines the ranks' values element by element with op.
func reduce[T int64 | float64](out []T, all [][]byte, op mpi.ReduceOp, get func([]byte) T) {
	for i := range out {
		acc := get(all[0][8*i:])
		for _, b := range all[1:] {
			x := get(b[8*i:])
			switch op {
			case mpi.Max:
				acc = max(acc, x)
			case mpi.Min:
				acc = min(acc, x)
			case mpi.Sum:
				acc += x
			}
		}
		out[i] = acc
	}
}

// SetFlags sets flags of fs (name without the dash → value) for the test
// and restores them when it ends: a suite's Setup reads its flags.
func SetFlags(t testing.TB, fs *flag.FlagSet, kv map[string]string) {
	t.Helper()
	for k, v := range kv {
		f := fs.Lookup(k)
		if f == nil {
			t.Fatalf("no flag -%s", k)
		}
		old := f.Value.String()
		if err := fs.Set(k, v); err != nil {
			t.Fatalf("-%s=%s: %v", k, v, err)
		}
		t.Cleanup(func() { fs.Set(k, old) })
	}
}

// A SetupCase is one set of flags a driver's Setup is given: the error
// it must refuse them with (a substring), or a check of the settings S it
// decides.
type SetupCase[S any] struct {
	Name  string
	Flags map[string]string
	Short bool // a -test.short job
	Err   string
	Check func(t *testing.T, st S)
}

// CheckSetup runs setup on a copy of job under each case's flags.
func CheckSetup[S any](t *testing.T, fs *flag.FlagSet, job *harness.Job, setup func(*harness.Job) (S, error), cases []SetupCase[S]) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			SetFlags(t, fs, c.Flags)
			in := *job
			in.Short = c.Short
			got, err := setup(&in)
			switch {
			case c.Err != "" && err == nil:
				t.Fatalf("no error, want one with %q", c.Err)
			case c.Err != "":
				if !strings.Contains(err.Error(), c.Err) {
					t.Errorf("error %q, want one with %q", err, c.Err)
				}
			case err != nil:
				t.Fatalf("error: %v", err)
			default:
				c.Check(t, got)
			}
		})
	}
}

// ShortJob is a -test.short job of 2 processes on one host (vm) of
// 4 GiB, under Open MPI 4.1.4 at thread level single: the job of the
// drivers' resume tests, whose files name it.
func ShortJob() *harness.Job {
	return &harness.Job{Hosts: []string{"vm", "vm"}, MemMiB: 4096, ProcsNode: 2, Thread: "single", Short: true, Library: "Open MPI v4.1.4"}
}
