package e2e

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bigNP is the size of the big jobs (make big-test): BEFF_BIG_NP, else
// 256.
func bigNP(t *testing.T) int {
	v := os.Getenv("BEFF_BIG_NP")
	if v == "" {
		return 256
	}
	np, err := strconv.Atoi(v)
	require.NoError(t, err, "BEFF_BIG_NP")
	return np
}

// bigSuites are the suites whose quick job (-test.short) TestBigJobs
// runs, with what else their job needs.
var bigSuites = []struct {
	name string
	args []string
}{
	{"b_eff", nil},
	{"b_eff_io", []string{"-beffio.dir", os.TempDir()}},
	{"skampi", nil},
	{"congestion", nil},
	{"links", nil},
}

// A stampedLine is a line of stderr with the time it came.
type stampedLine struct {
	at   time.Time
	text string
}

// stamped collects the lines of a pipe with the time each came.
type stamped struct {
	mu    sync.Mutex
	lines []stampedLine
}

func (s *stamped) read(r *bufio.Scanner) {
	for r.Scan() {
		s.mu.Lock()
		s.lines = append(s.lines, stampedLine{time.Now(), r.Text()})
		s.mu.Unlock()
	}
}

func (s *stamped) text() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var b strings.Builder
	for _, l := range s.lines {
		b.WriteString(l.text + "\n")
	}
	return b.String()
}

// refusal is the line that says why a job was refused.
var refusal = regexp.MustCompile(`(?m)^beff: .*$`)

var progressLine = regexp.MustCompile(`\[beff\] .* (\d+)/(\d+) measurements, \S+ elapsed, ETA ~?(\S+)( \(rough: .*\))?$`)

// etaErrors are the relative errors of the ETAs of a job's progress lines
// against the time the last line came (the end of the measurements), in
// the order of the lines.
func etaErrors(lines []stampedLine) []float64 {
	var ps []stampedLine
	var etas []time.Duration
	for _, l := range lines {
		m := progressLine.FindStringSubmatch(l.text)
		if m == nil {
			continue
		}
		d, err := time.ParseDuration(m[3])
		if err != nil {
			d = -1 // "?": nothing done yet
		}
		ps, etas = append(ps, l), append(etas, d)
	}
	if len(ps) < 2 {
		return nil
	}
	end := ps[len(ps)-1].at
	var errs []float64
	for i, l := range ps[:len(ps)-1] {
		if left := end.Sub(l.at); etas[i] >= 0 && left > 0 {
			errs = append(errs, (etas[i].Seconds()-left.Seconds())/left.Seconds())
		}
	}
	return errs
}

// describeErrors sums up ETA errors: in the first third of the lines and
// in the rest, the median and the largest of their sizes.
func describeErrors(errs []float64) string {
	if len(errs) == 0 {
		return "no ETA"
	}
	part := func(e []float64) string {
		if len(e) == 0 {
			return "-"
		}
		a := make([]float64, len(e))
		for i, x := range e {
			a[i] = math.Abs(x)
		}
		slices.Sort(a)
		return fmt.Sprintf("median %.0f%%, largest %.0f%% of %d", 100*a[len(a)/2], 100*a[len(a)-1], len(a))
	}
	k := len(errs) / 3
	each := make([]string, len(errs))
	for i, e := range errs {
		each[i] = fmt.Sprintf("%+.0f%%", 100*e)
	}
	return fmt.Sprintf("first third: %s; the rest: %s; each: %s", part(errs[:k]), part(errs[k:]), strings.Join(each, " "))
}

// TestBigJobs (make big-test): each suite's quick job (-test.short) on
// BEFF_BIG_NP processes (256) of this machine, as beff run runs it: it
// completes, or is refused before it starts with one line that says why.
// Its wall time, its lines on stderr and the ETA's errors are logged.
// BEFF_BIG_SUITES=b_eff,links runs those alone.
func TestBigJobs(t *testing.T) {
	if os.Getenv("BEFF_BIG_TESTS") != "1" {
		t.Skip("the big jobs run with BEFF_BIG_TESTS=1 (make big-test)")
	}
	bin := mpiBinary(t, true)
	np := bigNP(t)
	only := os.Getenv("BEFF_BIG_SUITES") // a comma-separated list: those alone
	for _, su := range bigSuites {
		if only != "" && !slices.Contains(strings.Split(only, ","), su.name) {
			continue
		}
		t.Run(fmt.Sprintf("np=%d/%s", np, su.name), func(t *testing.T) {
			results := t.TempDir()
			args := append([]string{"run", "-np", strconv.Itoa(np), "-bin", bin, "-bench", su.name, "-results", results,
				"-timeout", "3h", "--", "-test.short", "-progress", "log"}, su.args...)
			cmd := exec.Command(beffCommand(t), args...)
			pipe, err := cmd.StderrPipe()
			require.NoError(t, err)
			var lines stamped
			start := time.Now()
			require.NoError(t, cmd.Start())
			lines.read(bufio.NewScanner(pipe))
			err = cmd.Wait()
			took := time.Since(start)
			stderr := lines.text()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			}
			beffLines := beffLine.FindAllString(stderr, -1)
			t.Logf("%s on %d processes: exit %d after %s, %d lines on stderr, %d of beff's ranks; ETA: %s",
				su.name, np, code, took.Round(time.Second), strings.Count(stderr, "\n"), len(beffLines), describeErrors(etaErrors(lines.lines)))
			if code == 0 {
				assert.Contains(t, stderr, "beff run: ", "beff run says what it stored")
				return
			}
			t.Logf("refused: %q; stderr:\n%s", refusal.FindAllString(stderr, -1), lastLines(stderr, 12))
			assert.Equal(t, 2, code, "a job that does not complete is refused")
			assert.NotRegexp(t, `\d+/\d+ measurements`, stderr, "refused before it starts")
			assert.LessOrEqual(t, len(beffLines), 1, "one line says why")
		})
	}
}
