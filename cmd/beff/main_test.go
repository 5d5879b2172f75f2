package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/internal/results/resultstest"
	"github.com/beff-suite/beff/suites/beff"
	"github.com/beff-suite/beff/suites/beffio"
)

// run runs beffMain and returns its exit code, stdout and stderr.
func run(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := beffMain(&stdout, &stderr, args)
	return code, stdout.String(), stderr.String()
}

// TestGolden compares the output of fold with testdata/fold/NAME.stdout
// (paths relative to this package) for the variants beyond each
// suite's own file (TestSuitesConform). On a mismatch it writes
// NAME.got-stdout next to it; BEFF_UPDATE=1 rewrites NAME.stdout.
func TestGolden(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"short-np2-rmax", []string{"fold", "-rmax", "50", "testdata/short-np2.txt"}},
		// A real -test.short run of testdata/skampi-types.yaml on 2
		// processes: datatypes by four methods, their ratios.
		{"skampi-types-np2", []string{"fold", "testdata/skampi-types-np2.txt"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := run(tt.args...)
			require.Equal(t, 0, code, "stderr: %s", stderr)
			assert.Empty(t, stderr)
			golden := filepath.Join("testdata", "fold", tt.name+".stdout")
			got := filepath.Join("testdata", "fold", tt.name+".got-stdout")
			checkGolden(t, golden, got, stdout)
		})
	}
}

// checkGolden compares stdout with the golden file (rewritten with
// BEFF_UPDATE=1); on a mismatch it writes stdout to got and shows the first
// differing line.
func checkGolden(t *testing.T, golden, got, stdout string) {
	t.Helper()
	if resultstest.Update() {
		require.NoError(t, os.WriteFile(golden, []byte(stdout), 0o644))
		return
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err, "run with BEFF_UPDATE=1 to create it")
	if string(want) == stdout {
		os.Remove(got)
		return
	}
	require.NoError(t, os.WriteFile(got, []byte(stdout), 0o644))
	t.Errorf("output differs from %s (written to %s):\n%s", golden, got, firstDiff(string(want), stdout))
}

// firstDiff shows the first line where want and got differ.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return "line " + strconv.Itoa(i+1) + ":\n- " + wl + "\n+ " + gl
		}
	}
	return ""
}

func TestShortNP2Beff(t *testing.T) {
	code, stdout, _ := run("fold", "testdata/short-np2.txt")
	require.Equal(t, 0, code)
	first, _, _ := strings.Cut(stdout, "\n")
	assert.Equal(t, "b_eff = 9954.0 MB/s", first)
	assert.Contains(t, stdout, "\nBenchmarkBeffFold/fig=beff 1 9954.048712636575 MB/s\n")
}

// A refusal is a command that must fail: its exit code and a substring
// of what it writes on stderr; nothing on stdout.
type refusal struct {
	name   string
	args   []string
	code   int
	stderr string
}

// checkRefusals runs each refusal and checks it.
func checkRefusals(t *testing.T, tests []refusal) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := run(tt.args...)
			assert.Equal(t, tt.code, code)
			assert.Empty(t, stdout)
			assert.Contains(t, stderr, tt.stderr)
		})
	}
}

func TestUsage(t *testing.T) {
	tests := []refusal{
		{"no command", nil, 2, "usage: beff <command>"},
		{"unknown command", []string{"report2"}, 2, "beff: unknown command \"report2\"\nusage: beff <command>"},
		{"no files", []string{"fold"}, 2, "beff fold: no input files\nusage: beff fold"},
		{"bad flag", []string{"fold", "-x", "a.txt"}, 2, "flag provided but not defined: -x"},
		{"negative rmax", []string{"fold", "-rmax", "-1", "a.txt"}, 2, "beff fold: -rmax=-1: Rmax must be a positive number of GFlop/s\n"},
		{"bad rmax", []string{"fold", "-rmax", "many", "a.txt"}, 2, "invalid value \"many\" for flag -rmax"},
		{"missing file", []string{"fold", "nonexistent.txt"}, 2, "beff fold: open nonexistent.txt: no such file or directory\n"},
	}
	checkRefusals(t, tests)

	code, stdout, stderr := run("help")
	assert.Equal(t, 0, code)
	assert.Contains(t, stdout, "fold")
	assert.Empty(t, stderr)
	code, _, stderr = run("fold", "-h")
	assert.Equal(t, 0, code)
	assert.Contains(t, stderr, "-append")
}

// writeTemp writes data to a new file in a temporary directory.
func writeTemp(t *testing.T, name, data string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, []byte(data), 0o644))
	return path
}

// withoutLine is text without the result line of the benchmark named
// name.
func withoutLine(text, name string) string {
	var kept []string
	for _, l := range strings.Split(text, "\n") {
		if !strings.HasPrefix(l, name+" ") {
			kept = append(kept, l)
		}
	}
	return strings.Join(kept, "\n")
}

// fixture is the text of testdata/name.
// anotherLaunch is text as another launch could have written it: the
// first ns/op one higher (a copy with only its configuration lines edited
// is the same launch, and counts once).
func anotherLaunch(text string, k int) string {
	m := firstNsOp.FindStringSubmatchIndex(text)
	if m == nil {
		panic("anotherLaunch: no ns/op")
	}
	n, _ := strconv.Atoi(text[m[2]:m[3]])
	return text[:m[2]] + strconv.Itoa(n+k) + text[m[3]:]
}

var firstNsOp = regexp.MustCompile(`\t *(\d+) ns/op`)

func fixture(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	return string(data)
}

func TestRefusal(t *testing.T) {
	const gone = "BenchmarkBeff/pat=random02/L=16384/mthd=nonblocking"
	path := writeTemp(t, "cut.txt", withoutLine(fixture(t, "short-np2.txt"), gone))
	code, stdout, stderr := run("fold", path)
	assert.Equal(t, exitBadInput, code)
	assert.Empty(t, stdout)
	assert.Equal(t, "beff fold: "+path+":27: run 1: missing 1 measurement: pat=random02/L=16384/mthd=nonblocking\n", stderr)

	code, _, stderr = run("fold", writeTemp(t, "empty.txt", ""))
	assert.Equal(t, exitBadInput, code)
	assert.Regexp(t, `^beff fold: .*empty\.txt: not beff output: no BenchmarkBeff, BenchmarkBeffIO, BenchmarkSkampi, BenchmarkCongestion or BenchmarkLinks results\n$`, stderr)
}

func TestAppend(t *testing.T) {
	orig := fixture(t, "short-np2.txt")
	path := writeTemp(t, "results.txt", orig)
	code, stdout, stderr := run("fold", "-append", path)
	require.Equal(t, 0, code, stderr)
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(after), orig), "the original content is kept")
	added := string(after[len(orig):])

	// The appended lines are the summary printed after the protocol, after
	// lines clearing the configuration.
	_, summary, ok := strings.Cut(stdout, "\nUnit MB/s better=higher\n")
	require.True(t, ok)
	assert.True(t, strings.HasSuffix(added, "\nUnit MB/s better=higher\n"+summary), "appended:\n%s", added)
	assert.Contains(t, added, "\nbeff-lmax:\n")

	// The file still parses, and the fold lines are there without configuration.
	var figs []string
	recs, _ := resultstest.FoldResults(t, after, path, beff.ID.FoldBench())
	for _, rec := range recs {
		figs = append(figs, string(rec.Name))
		if string(rec.Name) == "BeffFold/fig=beff" {
			assert.InDelta(t, 9954.0487, rec.Values[0].OrigValue, 1e-4)
		}
	}
	assert.Contains(t, figs, "BeffFold/fig=beff")
	assert.Contains(t, figs, "BeffFold/fig=lat-pingpong")
	assert.Len(t, figs, 9) // no balance without Rmax

	// Folding the appended file gives the same protocol.
	code, stdout2, _ := run("fold", path)
	require.Equal(t, 0, code)
	assert.Equal(t, stdout, stdout2)

	// A second -append is refused and leaves the file alone.
	code, stdout, stderr = run("fold", "-append", path)
	assert.Equal(t, exitBadInput, code)
	assert.Empty(t, stdout)
	assert.Equal(t, "beff fold: "+path+": already holds folded figures (9 BenchmarkBeffFold lines); not appending again\n", stderr)
	again, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, string(after), string(again))
}

// TestAppendAllOrNothing checks that -append writes nothing when one of the
// inputs is refused.
func TestAppendAllOrNothing(t *testing.T) {
	orig := fixture(t, "short-np2.txt")
	good := writeTemp(t, "good.txt", orig)
	bad := writeTemp(t, "bad.txt", strings.Replace(orig, "beff-random-patterns: 3", "beff-random-patterns: 3\nbeff-patterns: ring2", 1))
	code, stdout, stderr := run("fold", "-append", good, bad)
	assert.Equal(t, exitBadInput, code)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "pattern ring4 is not in beff-patterns")
	after, err := os.ReadFile(good)
	require.NoError(t, err)
	assert.Equal(t, orig, string(after))

	// one file named twice (by another path): refused, its figures would
	// be appended twice
	dot := filepath.Join(filepath.Dir(good), ".", filepath.Base(good))
	code, stdout, stderr = run("fold", "-append", good, dot)
	assert.Equal(t, exitBadInput, code)
	assert.Empty(t, stdout)
	assert.Equal(t, "beff fold: "+good+" and "+dot+" are one file: name it once to append to it\n", stderr)
	after, err = os.ReadFile(good)
	require.NoError(t, err)
	assert.Equal(t, orig, string(after))

	// a copy with its date edited: each file gets its figures, the run
	// counts once in the protocols, and fold says so
	cp := writeTemp(t, "copy.txt", strings.Replace(orig, "date: 2026-11-21", "date: 2026-12-24", 1))
	code, stdout, stderr = run("fold", "-append", good, cp)
	assert.Equal(t, exitOK, code, stderr)
	assert.Equal(t, "beff fold: "+cp+" (b_eff run 1) repeats "+good+" (b_eff run 1) (the same measurements, whatever its configuration lines say): counted once\n", stderr)
	assert.Equal(t, 1, strings.Count(stdout, "\nVALID")+strings.Count(stdout, "NOT VALID"), "one protocol")
	for _, f := range []string{good, cp} {
		after, err := os.ReadFile(f)
		require.NoError(t, err)
		assert.Contains(t, string(after), "BenchmarkBeffFold/fig=beff ")
	}
}

// TestCount2 folds a file written with -test.count=2: every name twice in a
// row; the second run has doubled bandwidths and so doubled b_eff.
func TestCount2(t *testing.T) {
	mbps := regexp.MustCompile(`([0-9.]+) MB/s`)
	msLoop := regexp.MustCompile(`([0-9.]+) ms/loop`)
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimSuffix(fixture(t, "short-np2.txt"), "\n"), "\n") {
		b.WriteString(l + "\n")
		if strings.HasPrefix(l, "BenchmarkBeff/") {
			m := mbps.FindStringSubmatchIndex(l)
			v, err := strconv.ParseFloat(l[m[2]:m[3]], 64)
			require.NoError(t, err)
			d := l[:m[2]] + strconv.FormatFloat(2*v, 'f', -1, 64) + l[m[3]:]
			// twice the bandwidth in half the loop time: the line agrees with itself
			ms := msLoop.FindStringSubmatchIndex(d)
			t2, err := strconv.ParseFloat(d[ms[2]:ms[3]], 64)
			require.NoError(t, err)
			b.WriteString(d[:ms[2]] + strconv.FormatFloat(t2/2, 'f', -1, 64) + d[ms[3]:] + "\n")
		}
	}
	path := writeTemp(t, "count2.txt", b.String())
	code, stdout, stderr := run("fold", path)
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, []string{"b_eff = 9954.0 MB/s", "b_eff = 19908.1 MB/s"},
		regexp.MustCompile(`(?m)^b_eff = .*$`).FindAllString(stdout, -1))
	assert.Contains(t, stdout, "Run 1 of "+path+" (from line 27)")
	assert.Contains(t, stdout, "Run 2 of "+path+" (from line 28)")
	assert.Equal(t, 2, strings.Count(stdout, "\nBenchmarkBeffFold/fig=beff 1 "))
}

func TestIOFold(t *testing.T) {
	code, stdout, stderr := run("fold", "testdata/io-synthetic.txt")
	require.Equal(t, 0, code, stderr)
	lines := strings.SplitN(stdout, "\n", 3)
	assert.Equal(t, []string{"b_eff_io = 146.25 MB/s", "VALID"}, lines[:2])
	assert.Contains(t, stdout, "\nUnit MB/s better=higher\nUnit min better=lower\nBenchmarkBeffIOFold/fig=beffio 1 146.25 MB/s\n")
	assert.Contains(t, stdout, "\nBenchmarkBeffIOFold/fig=partition/n=1 1 73.125 MB/s\n")
	assert.NotContains(t, stdout, "BenchmarkBeffFold/")
	assert.NotContains(t, stdout, "Unit us")

	// T = 60 s: NOT VALID.
	path := writeTemp(t, "t60.txt", strings.Replace(fixture(t, "io-synthetic.txt"), "beffio-t-s: 1800", "beffio-t-s: 60", 1))
	code, stdout, stderr = run("fold", path)
	require.Equal(t, 0, code, stderr)
	lines = strings.SplitN(stdout, "\n", 3)
	assert.Equal(t, []string{"b_eff_io = 146.25 MB/s", "NOT VALID: T per partition 30 s < 15 min"}, lines[:2])
}

// TestBoth folds a file holding a b_eff and a b_eff_io run: both protocols,
// b_eff first, and one summary.
func TestBoth(t *testing.T) {
	path := writeTemp(t, "both.txt", fixture(t, "short-np2.txt")+fixture(t, "io-synthetic.txt"))
	code, stdout, stderr := run("fold", path)
	require.Equal(t, 0, code, stderr)
	first, _, _ := strings.Cut(stdout, "\n")
	assert.Equal(t, "b_eff = 9954.0 MB/s", first)
	// The b_eff_io lines start at line 23 of io-synthetic.txt.
	from := strings.Count(fixture(t, "short-np2.txt"), "\n") + 23
	assert.True(t, strings.Contains(stdout, fmt.Sprintf("\n\n\nb_eff_io = 146.25 MB/s\nVALID\n\nb_eff_io run 1 of %s (from line %d): 294 lines\n", path, from)),
		"the b_eff_io protocol follows the b_eff protocol")
	_, summary, ok := strings.Cut(stdout, "\nUnit MB/s better=higher\n")
	require.True(t, ok)
	assert.True(t, strings.HasPrefix(summary, "Unit us better=lower\nUnit B/F better=higher\nUnit min better=lower\nBenchmarkBeffFold/fig=beff 1 9954.048712636575 MB/s\n"), summary)
	assert.Contains(t, summary, "\nBenchmarkBeffIOFold/fig=beffio 1 146.25 MB/s\n")

	// -append writes one block with both, and refuses a second time.
	code, stdout, stderr = run("fold", "-append", path)
	require.Equal(t, 0, code, stderr)
	code, stdout2, _ := run("fold", path)
	require.Equal(t, 0, code)
	assert.Equal(t, stdout, stdout2)
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	added := string(after[len(fixture(t, "short-np2.txt")+fixture(t, "io-synthetic.txt")):])
	assert.Equal(t, 1, strings.Count(added, "Unit MB/s better=higher"), "one block:\n%s", added)
	assert.Contains(t, added, "\nbeffio-rewrite:\n")
	code, _, stderr = run("fold", "-append", path)
	assert.Equal(t, exitBadInput, code)
	assert.Equal(t, "beff fold: "+path+": already holds folded figures (9 BenchmarkBeffFold and 8 BenchmarkBeffIOFold lines); not appending again\n", stderr)
}

func TestIOAppend(t *testing.T) {
	orig := fixture(t, "io-synthetic.txt")
	path := writeTemp(t, "io.txt", orig)
	code, stdout, stderr := run("fold", "-append", path)
	require.Equal(t, 0, code, stderr)
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(after), orig))
	_, summary, ok := strings.Cut(stdout, "\nUnit MB/s better=higher\n")
	require.True(t, ok)
	assert.True(t, strings.HasSuffix(string(after), "\nUnit MB/s better=higher\n"+summary))

	var figs []string
	recs, _ := resultstest.FoldResults(t, after, path, beffio.ID.FoldBench())
	for _, rec := range recs {
		figs = append(figs, string(rec.Name))
	}
	assert.Equal(t, []string{"BeffIOFold/fig=beffio", "BeffIOFold/fig=partition/n=1", "BeffIOFold/fig=partition/n=2",
		"BeffIOFold/fig=access/acc=write", "BeffIOFold/fig=access/acc=rewrite", "BeffIOFold/fig=access/acc=read",
		"BeffIOFold/fig=reference", "BeffIOFold/fig=totalmem-time"}, figs)

	code, stdout2, _ := run("fold", path)
	require.Equal(t, 0, code)
	assert.Equal(t, stdout, stdout2)
	code, _, stderr = run("fold", "-append", path)
	assert.Equal(t, exitBadInput, code)
	assert.Equal(t, "beff fold: "+path+": already holds folded figures (8 BenchmarkBeffIOFold lines); not appending again\n", stderr)
}

func TestIORefusal(t *testing.T) {
	const gone = "BenchmarkBeffIO/n=2/acc=rewrite/type=separated/pat=total"
	cut := withoutLine(fixture(t, "io-synthetic.txt"), gone)
	path := writeTemp(t, "cut.txt", cut)
	code, stdout, stderr := run("fold", "-append", path)
	assert.Equal(t, exitBadInput, code)
	assert.Empty(t, stdout)
	assert.Equal(t, "beff fold: "+path+":23: b_eff_io run 1: incomplete: missing 1 line: n=2/acc=rewrite/type=separated/pat=total\n", stderr)
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, cut, string(after), "nothing appended")
}

// TestInternalError: a panic in a command (a bug of beff) is one line on
// stderr that names the command and where the details went, and exit
// code 3; no stack trace.
func TestInternalError(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	boom := command{"boom", "panics", func(stdout, stderr io.Writer, args []string) int { panic("a bug") }}
	commands = append(commands, boom)
	defer func() { commands = commands[:len(commands)-1] }()
	code, _, stderr := run("boom", "x")
	assert.Equal(t, exitInternal, code)
	assert.Regexp(t, `^beff boom: internal error: a bug \(details in .*beff-crash-\d+\.txt; please report it\)\n$`, stderr)
}

// TestFoldJoinedJobs: a file that joins the runs of two machines gives a
// protocol per run, and no table across them as if they were launches of
// one system.
func TestFoldJoinedJobs(t *testing.T) {
	one := fixture(t, "short-np2.txt")
	two := strings.ReplaceAll(anotherLaunch(one, 1), "mpi-hosts: vm (2)", "mpi-hosts: other (2)")
	path := writeTemp(t, "joined.txt", one+two)
	code, stdout, stderr := run("fold", path)
	require.Equal(t, exitOK, code, stderr)
	assert.Equal(t, 2, strings.Count(stdout, "Run 1 of "+path)+strings.Count(stdout, "Run 2 of "+path))
	assert.Contains(t, stdout, "No table across the launches: the launches are not of one system (machine: 2 values: vm (2); other (2)): compare them with beff compare\n")
}
