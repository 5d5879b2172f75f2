package harness

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const partialOut = `beff-partial: terminated by SIGTERM
beff-version: 0.1.0
mpi-procs: 2
toy-size: 3
BenchmarkToy/x=1 1 10 ns/op 5 MB/s
BenchmarkToy/x=2 1 20 ns/op 6 MB/s
BenchmarkOther/y=1 1 1 ns/op
BenchmarkToy/x=1 1 30 ns/op 7 MB/s
BenchmarkToy/x=3 1 40 ns/op 8 M`

func writePartial(t *testing.T, text string) string {
	p := filepath.Join(t.TempDir(), "part.txt")
	require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	return p
}

func wantOf(w map[string]string) func(map[string]string) (map[string]string, error) {
	return func(map[string]string) (map[string]string, error) { return w, nil }
}

// TestReadResume: the lines of the benchmark are counted by name in file
// order, the cut last line is dropped, and a configuration that differs
// (a key of the run, or a key of the suite's prefix in the file) is
// refused with every difference; the job's descriptive keys and the
// partial marker do not count.
func TestReadResume(t *testing.T) {
	p := writePartial(t, partialOut)
	r, err := (&Job{}).ReadResume("toy.resume", p, "Toy", wantOf(map[string]string{"mpi-procs": "2", "toy-size": "3"}), nil, "toy-")
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"x=1": 2, "x=2": 1}, r.Counts)
	assert.Equal(t, []string{"x=1", "x=2"}, r.Order)
	assert.Equal(t, 3, r.Total())
	assert.Equal(t, "3 lines copied from "+p, r.Describe("lines"))

	_, err = (&Job{}).ReadResume("toy.resume", p, "Toy", wantOf(map[string]string{"mpi-procs": "4"}), nil, "toy-")
	assert.EqualError(t, err, "-toy.resume="+p+": not the configuration of this run:\n"+
		"  mpi-procs: the file has \"2\", this run \"4\"\n  toy-size: the file has \"3\", not in this run")

	_, err = (&Job{}).ReadResume("toy.resume", p, "Toy", wantOf(map[string]string{"mpi-procs": "2", "toy-size": "3"}),
		func(name string, m map[string]float64) error {
			if m["MB/s"] > 6 {
				return assert.AnError
			}
			return nil
		}, "toy-")
	assert.ErrorContains(t, err, "BenchmarkToy/x=1: "+assert.AnError.Error())
	assert.ErrorContains(t, err, p+":8: ", "the file and line of the refused line")

	_, err = (&Job{}).ReadResume("toy.resume", p, "Nothing", wantOf(nil), nil)
	assert.EqualError(t, err, "-toy.resume: "+p+": no line of BenchmarkNothing to resume from")

	// an earlier job of another configuration in front of this one's
	// lines: the whole file must be of this run
	foreign := "mpi-procs: 64\ntoy-size: 3\nBenchmarkToy/x=1 1 10 ns/op 5 MB/s\nBenchmarkToy/x=2 1 20 ns/op 6 MB/s\n\n"
	mixed := writePartial(t, foreign+partialOut)
	_, err = (&Job{}).ReadResume("toy.resume", mixed, "Toy", wantOf(map[string]string{"mpi-procs": "2", "toy-size": "3"}), nil, "toy-")
	assert.EqualError(t, err, "-toy.resume="+mixed+": not the configuration of this run:\n"+
		"  the lines from line 3 on (2 configurations in the file):\n  mpi-procs: the file has \"64\", this run \"2\"")
	// the same configuration twice (a job's output put after another's
	// of the same configuration) is one block
	again := writePartial(t, "mpi-procs: 2\ntoy-size: 3\nBenchmarkToy/x=1 1 10 ns/op 5 MB/s\n\n"+partialOut)
	r, err = (&Job{}).ReadResume("toy.resume", again, "Toy", wantOf(map[string]string{"mpi-procs": "2", "toy-size": "3"}), nil, "toy-")
	require.NoError(t, err)
	assert.Equal(t, 4, r.Total())

	_, err = (&Job{}).ReadResume("toy.resume", writePartial(t, "BenchmarkToy/x=1 1 NaN ns/op\nBenchmarkToy/x=2 1 1 ns/op\n"), "Toy", wantOf(nil), nil)
	assert.ErrorContains(t, err, ":1: x=1: NaN ns/op is not a finite number")

	_, err = (&Job{}).ReadResume("toy.resume", "/dev/zero", "Toy", wantOf(nil), nil)
	assert.ErrorContains(t, err, "-toy.resume: /dev/zero: not a regular file")
}

// TestResumeNext: every rank grants the saved occurrences of a name in
// turn, then measures; Keep narrows a resume to some names.
func TestResumeNext(t *testing.T) {
	r := &Resume{Counts: map[string]int{"a": 2, "b": 1}, Order: []string{"a", "b"}}
	got := []bool{r.Next("a"), r.Next("b"), r.Next("a"), r.Next("a"), r.Next("b"), r.Next("c")}
	assert.Equal(t, []bool{true, true, true, false, false, false}, got)
	var none *Resume
	assert.False(t, none.Next("a"), "no resume: measure everything")

	k := (&Resume{Counts: map[string]int{"a": 2, "b": 1}, Order: []string{"a", "b"}}).Keep(func(n string) bool { return n == "b" })
	assert.Equal(t, &Resume{Counts: map[string]int{"b": 1}, Order: []string{"b"}}, k)
	assert.Equal(t, 1, k.Total())
	assert.Nil(t, k.Keep(func(string) bool { return false }))
}

// TestResumeWrite: each granted occurrence of a name writes its own saved
// metrics as the sub-benchmark's, in turn, ns/op as saved; a name not
// granted writes nothing.
func TestResumeWrite(t *testing.T) {
	s := soloSession(Job{}, &bytes.Buffer{})
	r, err := s.Job.ReadResume("toy.resume", writePartial(t, partialOut), "Toy", wantOf(map[string]string{"mpi-procs": "2", "toy-size": "3"}), nil, "toy-")
	require.NoError(t, err)
	var got []map[string]float64
	testing.Benchmark(func(b *testing.B) {
		if got != nil {
			return // testing runs the function again with a larger b.N
		}
		for r.Next("x=1") {
			got = append(got, r.Write(b, s, "x=1"))
		}
		got = append(got, r.Write(b, s, "x=3"))
	})
	assert.Equal(t, []map[string]float64{{"MB/s": 5, "ns/op": 10}, {"MB/s": 7, "ns/op": 30}, nil}, got, "the two saved occurrences in file order; x=3 was cut")
}

// TestResumeWant: what a partial output must share with the run: the
// processes, hosts, library, thread level and mode, and a suite's lines.
func TestResumeWant(t *testing.T) {
	j := &Job{Hosts: []string{"a", "a", "b"}, Library: "MPICH 4.0.2", Thread: "single", Short: true}
	assert.Equal(t, map[string]string{"mpi-procs": "3", "mpi-hosts": "a (2), b (1)", "mpi-library": "MPICH 4.0.2",
		"mpi-thread": "single", "beff-mode": "short (quick check, not a valid result)", "toy-size": "3", "toy-seed": "a: b"},
		j.ResumeWantLines([]string{"toy-size: 3", "toy-seed: a: b"}))
	j.Short = false
	assert.Equal(t, "full", j.ResumeWant()["beff-mode"])
}
