package e2e

// End-to-end tests of b_eff_io: real mpirun jobs doing real MPI-IO on a real
// file system (see jobs_test.go for the helpers).

import (
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/beff-suite/beff/suites/beffio"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/perf/benchfmt"
)

var quickIO = []string{"-test.run", "^$", "-test.bench", "^BenchmarkBeffIO$", "-test.short"}

// ioLine is one BenchmarkBeffIO line's metrics (original units).
type ioLines struct {
	config map[string]string
	metric map[string]map[string]float64 // name without "BeffIO/" → unit → value
}

func parseIO(t *testing.T, out string) ioLines {
	t.Helper()
	p := ioLines{config: map[string]string{}, metric: map[string]map[string]float64{}}
	r := benchfmt.NewReader(strings.NewReader(out), "stdout")
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.Result:
			for _, c := range rec.Config {
				p.config[c.Key] = string(c.Value)
			}
			name := strings.TrimPrefix(string(rec.Name.Full()), "BeffIO/")
			m := map[string]float64{}
			for _, v := range rec.Values {
				u, x := v.Unit, v.Value
				if v.OrigUnit != "" {
					u, x = v.OrigUnit, v.OrigValue
				}
				m[u] = x
			}
			p.metric[name] = m
		case *benchfmt.SyntaxError:
			t.Errorf("benchfmt: %v", rec)
		}
	}
	require.NoError(t, r.Err())
	return p
}

func (p ioLines) partitions(t *testing.T) []int {
	var out []int
	for _, f := range strings.Split(p.config["beffio-partitions"], ",") {
		n, err := strconv.Atoi(f)
		require.NoError(t, err)
		out = append(out, n)
	}
	return out
}

func (p ioLines) table(t *testing.T) []beffio.AccessPattern {
	mpart, err := strconv.ParseInt(p.config["beffio-mpart"], 10, 64)
	require.NoError(t, err)
	return beffio.Table(mpart)
}

// TestQuickBeffIO: on 1 to 4 processes every partition, access method,
// type and pattern is reported, with its total and phase lines, and no
// validation error; the write and the rewrite put at most 1 GiB on the
// file system.
func TestQuickBeffIO(t *testing.T) {
	bin := mpiBinary(t, true)
	for np := 1; np <= 4; np++ {
		t.Run(fmt.Sprintf("np=%d", np), func(t *testing.T) {
			res := mpirun(t, np, bin, quickIO...)
			require.Equal(t, 0, res.code, "stderr:\n%s", res.stderr)
			p := parseIO(t, res.stdout)
			parts := p.partitions(t)
			assert.Equal(t, beffio.Partitions(np), parts)
			want := 0
			for _, n := range parts {
				for _, acc := range beffio.Accesses {
					for _, ty := range beffio.Types {
						for _, pat := range p.table(t) {
							if pat.Type != ty {
								continue
							}
							name := fmt.Sprintf("n=%d/acc=%s/type=%s/%s", n, acc, ty, pat.Name())
							m, ok := p.metric[name]
							want++
							if assert.True(t, ok, "%s reported", name) {
								assert.Zero(t, m["errors"], name)
								if !pat.Fill {
									assert.GreaterOrEqual(t, m["reps"], 1.0, name)
									assert.Greater(t, m["MB/s"], 0.0, name)
								}
							}
						}
						want++
						tot := fmt.Sprintf("n=%d/acc=%s/type=%s/pat=total", n, acc, ty)
						if assert.Contains(t, p.metric, tot) {
							_, del := p.metric[tot]["delete-s"]
							assert.Equal(t, acc == beffio.Read, del, "%s: the removal of a read file is timed apart", tot)
							assert.Contains(t, p.metric[tot], "open-s", tot)
						}
					}
					want++
					assert.Contains(t, p.metric, fmt.Sprintf("n=%d/acc=%s/type=all/pat=phase", n, acc))
				}
			}
			assert.Len(t, p.metric, want, "no unexpected lines")
			written := 0.0
			for name, m := range p.metric {
				if !strings.Contains(name, "acc=read") && !strings.HasSuffix(name, "/pat=total") && !strings.HasSuffix(name, "/pat=phase") {
					written += m["MB"] * 1e6
				}
			}
			assert.Greater(t, written, 0.0)
			assert.LessOrEqual(t, written, float64(1<<30), "a quick run writes at most 1 GiB")
			leftovers, _ := filepath.Glob(filepath.Join(os.TempDir(), "beffio-*", "*"))
			assert.Empty(t, leftovers, "scratch files are removed")
		})
	}
}

// TestBeffIOReferenceRules: -beffio.reference runs the reference code's
// schedule (the scatter type alone rewritten), decides after every call of
// the timed write (one decision per call), counts open, patterns and close
// into each type's time, removes each file in the read's close (no removal
// timed apart), and folds to the 2.1 formula.
func TestBeffIOReferenceRules(t *testing.T) {
	bin := mpiBinary(t, true)
	res := mpirun(t, 2, bin, append(quickIO, "-beffio.reference")...)
	require.Equal(t, 0, res.code, "stderr:\n%s", res.stderr)
	p := parseIO(t, res.stdout)
	assert.Equal(t, "reference", p.config["beffio-rules"])
	assert.Equal(t, "scatter", p.config["beffio-rewrite"])
	assert.Equal(t, "barrier", p.config["beffio-stop"])
	for _, n := range p.partitions(t) {
		for _, acc := range beffio.Accesses {
			for _, ty := range beffio.Types {
				tot := fmt.Sprintf("n=%d/acc=%s/type=%s/pat=total", n, acc, ty)
				if acc == beffio.Rewrite && ty != beffio.Scatter {
					assert.NotContains(t, p.metric, tot, "only the scatter type is rewritten")
					continue
				}
				m, ok := p.metric[tot]
				require.True(t, ok, tot)
				assert.NotContains(t, m, "delete-s", tot)
				sum := m["open-s"] + m["close-s"]
				for _, pat := range p.table(t) {
					if pat.Type != ty {
						continue
					}
					pm := p.metric[fmt.Sprintf("n=%d/acc=%s/type=%s/%s", n, acc, ty, pat.Name())]
					sum += pm["s"]
					if acc == beffio.Write && ty <= beffio.Separated {
						assert.Equal(t, pm["reps"], pm["decisions"], "%s %s: one decision per call", tot, pat.Name())
					}
				}
				assert.InEpsilon(t, sum, m["s"], 0.01, "%s: open + patterns + close", tot)
			}
		}
	}
	out := foldStdout(t, res.stdout)
	assert.True(t, strings.HasPrefix(string(out), "b_eff_io (reference code 2.1 rules) = "), "%s", out)
	leftovers, _ := filepath.Glob(filepath.Join(os.TempDir(), "beffio-*", "*"))
	assert.Empty(t, leftovers, "the read's close removed the files")
}

// TestBeffIOFileLayout keeps the files of a 3-process run and reads them back
// with plain Go: every chunk of every rank must sit at the offset its pattern
// type prescribes (scatter blocks dealt round-robin, ordered shared-pointer
// chunks, one file per process, segments at rank·Lseg) and carry the
// validation values of the access method that wrote it last.
func TestBeffIOFileLayout(t *testing.T) {
	bin := mpiBinary(t, true)
	const np = 3
	dir := t.TempDir()
	res := mpirun(t, np, bin, append(quickIO, "-beffio.keep", "-beffio.dir", dir, "-beffio.partitions=3", "-beffio.T=3")...)
	require.Equal(t, 0, res.code, "stderr:\n%s", res.stderr)
	own, err := filepath.Glob(filepath.Join(dir, "beffio-*"))
	require.NoError(t, err)
	require.Len(t, own, 1, "the run makes one directory of its own under -beffio.dir")
	fi, err := os.Stat(own[0])
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), fi.Mode().Perm())
	dir = own[0]
	p := parseIO(t, res.stdout)
	table := p.table(t)
	reps := map[int]int64{}
	for _, pat := range table {
		m := p.metric[fmt.Sprintf("n=%d/acc=write/type=%s/%s", np, pat.Type, pat.Name())]
		require.NotNil(t, m, "pattern %d reported", pat.No)
		reps[pat.No] = int64(m["reps"])
	}
	// Segment size: Σ r3·l rounded up to 1 MiB; the fill pattern writes the rest.
	var sum int64
	for _, pat := range table {
		if pat.Type == beffio.Segmented && !pat.Fill {
			sum += reps[pat.No] * pat.L
		}
	}
	lseg := (sum + beffio.MiB - 1) / beffio.MiB * beffio.MiB
	checked := 0
	for _, ty := range beffio.Types {
		writer := beffio.LastWriter(beffio.RewriteAll, ty)
		var base int64
		for _, pat := range table {
			if pat.Type != ty {
				continue
			}
			if pat.Fill {
				pat.L, pat.Mem = lseg-sum, lseg-sum
			}
			for rank := 0; rank < np; rank++ {
				name := fmt.Sprintf("beffio_n%d_%s.dat", np, ty)
				if ty == beffio.Separated {
					name = fmt.Sprintf("beffio_n%d_%s_r%d.dat", np, ty, rank)
				}
				f, err := os.Open(filepath.Join(dir, name))
				require.NoError(t, err)
				for c := int64(0); c < reps[pat.No]; c++ {
					for j := int64(0); j < pat.Chunks(); j++ {
						off := pat.Offset(base, np, rank, c, j, lseg)
						var first, last [8]byte
						_, err := f.ReadAt(first[:], off)
						require.NoError(t, err)
						_, err = f.ReadAt(last[:], off+pat.L-8)
						require.NoError(t, err)
						want0 := beffio.Value(c, off, pat.No, writer, false)
						want1 := beffio.Value(c, off, pat.No, writer, true)
						if binary.LittleEndian.Uint64(first[:]) != want0 || (pat.L >= 16 && binary.LittleEndian.Uint64(last[:]) != want1) {
							t.Fatalf("%s pattern %d rank %d call %d chunk %d at offset %d: %x…%x, want %x…%x",
								name, pat.No, rank, c, j, off, first, last, want0, want1)
						}
						checked++
					}
				}
				f.Close()
			}
			base += pat.Region(reps[pat.No], np)
		}
	}
	t.Logf("checked %d chunks", checked)
	assert.Greater(t, checked, 1000)
}

// TestBeffIODiskFull runs on a small tmpfs that fills up during the write
// phase: the job must stop with the pattern where it happened, NOT VALID,
// no scratch file left, every rank gone (no hang).
func TestBeffIODiskFull(t *testing.T) {
	bin := mpiBinary(t, true)
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	dir := t.TempDir()
	out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=100m", "tmpfs", dir).CombinedOutput()
	if err != nil {
		t.Skipf("cannot mount a tmpfs here: %v: %s", err, out)
	}
	t.Cleanup(func() { // after the job's processes let go of the files (MPICH's launcher may end first)
		for try := 0; try < 50 && exec.Command("umount", dir).Run() != nil; try++ {
			time.Sleep(100 * time.Millisecond)
		}
	})
	res := mpirun(t, 2, bin, append(quickIO, "-beffio.dir", dir, "-beffio.T=20")...)
	assert.Equal(t, 5, res.code, "stderr:\n%s", res.stderr)
	assert.Contains(t, res.stderr, "b_eff_io stopped by an I/O error at partition")
	assert.Contains(t, res.stderr, "NOT VALID")
	assert.Contains(t, res.stderr, "the file system is full")
	left, _ := os.ReadDir(dir)
	assert.Empty(t, left, "scratch files are removed")
}

// TestBeffIOBadInput: each gives one message from rank 0 and exit code 2
// before anything is measured.
func TestBeffIOBadInput(t *testing.T) {
	bin := mpiBinary(t, true)
	ro := t.TempDir()
	if os.Geteuid() == 0 {
		if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", ro).CombinedOutput(); err != nil {
			t.Logf("no read-only tmpfs (%v: %s); using permissions", err, out)
			ro = ""
		} else {
			defer exec.Command("umount", ro).Run()
		}
	} else {
		require.NoError(t, os.Chmod(ro, 0o555))
	}
	cases := []struct {
		args []string
		msg  string
	}{
		{[]string{"-beffio.dir", "/nonexistent/beffio"}, "no such file or directory"},
		{[]string{"-beffio.T", "0.5"}, "too small for the pattern set"},
		{[]string{"-beffio.partitions", "2,5"}, "partition 5 is larger than the job"},
		{[]string{"-beffio.rewrite", "some"}, "want all or scatter"},
		{[]string{"-beffio.stop", "never"}, "want geometric or barrier"},
		{[]string{"-beffio.sharedfp", "maybe"}, "want auto or off"},
	}
	if ro != "" {
		cases = append(cases, struct {
			args []string
			msg  string
		}{[]string{"-beffio.dir", ro}, "not writable"})
	}
	if os.Geteuid() == 0 {
		small := t.TempDir()
		if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", small).CombinedOutput(); err == nil {
			defer exec.Command("umount", small).Run()
			cases = append(cases, struct {
				args []string
				msg  string
			}{[]string{"-beffio.dir", small}, "MiB free, a run needs at least"})
		} else {
			t.Logf("no small tmpfs (%v: %s)", err, out)
		}
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			res := mpirun(t, 3, bin, append(quickIO, c.args...)...)
			assert.Equal(t, 2, res.code, "stderr:\n%s", res.stderr)
			assert.Equal(t, 1, strings.Count(res.stderr, "beff: "), "one message, from rank 0:\n%s", res.stderr)
			assert.Contains(t, res.stderr, c.msg)
			assert.Empty(t, res.stdout)
		})
	}
}

// TestBeffIODataBudget: a small -beffio.maxdata stops the time-driven write
// patterns early; their lines say so and the fold marks the run NOT VALID.
func TestBeffIODataBudget(t *testing.T) {
	bin := mpiBinary(t, true)
	res := mpirun(t, 2, bin, append(quickIO, "-beffio.maxdata=20", "-beffio.T=20")...)
	require.Equal(t, 0, res.code, "stderr:\n%s", res.stderr)
	p := parseIO(t, res.stdout)
	assert.Contains(t, p.config["beffio-maxdata-mib"], "20 (-beffio.maxdata)")
	capped := 0
	for name, m := range p.metric {
		if m["capped"] == 1 {
			capped++
			assert.Contains(t, name, "/acc=write/", name)
		}
	}
	assert.Greater(t, capped, 0, "some patterns hit the budget")
	out := foldStdout(t, res.stdout)
	assert.Regexp(t, `(?m)^b_eff_io = [0-9.]+ MB/s`, string(out))
	assert.Contains(t, string(out), "data budget reached")
	assert.Contains(t, string(out), "NOT VALID")
}

// TestBeffIOValidationError corrupts 8 bytes on disk before the read phase
// (test-only flag): the read must report one bad chunk with its context and
// the fold must mark the run NOT VALID.
func TestBeffIOValidationError(t *testing.T) {
	bin := mpiBinary(t, true)
	res := mpirun(t, 2, bin, append(quickIO, "-beffio.testfault", "-beffio.T=3")...)
	require.Equal(t, 0, res.code, "stderr:\n%s", res.stderr)
	assert.Regexp(t, `b_eff_io validation error: partition 1, read, type scatter, pattern 0, rank 0: 1 bad chunk\(s\); first in call 0 at file offset 0: first element 0xffffffffffffffff \(expected 0x[0-9a-f]+\)`, res.stderr)
	p := parseIO(t, res.stdout)
	assert.Equal(t, 1.0, p.metric["n=1/acc=read/type=scatter/pat=0/l=1048576/L=1048576"]["errors"])
	out := foldStdout(t, res.stdout)
	assert.Contains(t, string(out), "1 validation error")
	assert.Contains(t, string(out), "NOT VALID")
}

// TestBeffIOSharedPointerOff: with the shared file pointer substituted by
// explicit offsets the data lands where write_ordered would put it (the read
// validation passes), the lines say sharedfp 0 and the fold marks the run
// NOT VALID.
func TestBeffIOSharedPointerOff(t *testing.T) {
	bin := mpiBinary(t, true)
	res := mpirun(t, 3, bin, append(quickIO, "-beffio.sharedfp=off", "-beffio.T=3", "-beffio.partitions=3")...)
	require.Equal(t, 0, res.code, "stderr:\n%s", res.stderr)
	p := parseIO(t, res.stdout)
	n := 0
	for name, m := range p.metric {
		if strings.Contains(name, "/type=shared/pat=") && !strings.HasSuffix(name, "pat=total") {
			n++
			assert.Equal(t, 0.0, m["sharedfp"], name)
			assert.Zero(t, m["errors"], name)
		}
	}
	assert.Equal(t, 3*8, n, "every shared pattern of every access method")
	file := filepath.Join(t.TempDir(), "io.txt")
	require.NoError(t, os.WriteFile(file, []byte(res.stdout), 0o644))
	out, err := exec.Command(beffCommand(t), "fold", file).CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, string(out), "shared file pointer substituted by explicit offsets (24 of 24")
}
