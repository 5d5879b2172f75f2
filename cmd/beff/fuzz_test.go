package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/beff-suite/beff/internal/fuzzcount"
	"github.com/beff-suite/beff/internal/report"
	"github.com/beff-suite/beff/internal/results"
)

// Fuzz targets of every reader of results files: whatever the input, a
// command ends with exit code 0 or its error code and, on an error, one
// line on stderr naming the file; never a panic (the fuzzing engine sees
// those: guarded is not in the way, the targets call the commands
// through beffMain and check that no internal error was reported) or a
// hang. Seeds: this package's test data (stored runs in testdata/runs). Run them with
// `make fuzz`; inputs that failed are kept in testdata/fuzz/<target>.

// maxSeed is the largest seed taken whole: the fuzzing engine minimizes
// every new interesting input, in time that grows with its size.
const maxSeed = 70 << 10

// excerpt keeps of a results file every line that is not a result and
// evenly spaced results, in order, to about maxSeed/4 bytes in all.
func excerpt(data []byte) []byte {
	lines := strings.SplitAfter(string(data), "\n")
	head, results := 0, 0
	for _, l := range lines {
		if strings.HasPrefix(l, "Benchmark") {
			results++
		} else {
			head += len(l)
		}
	}
	step := 1
	if room := maxSeed/4 - head; results > 0 && room > 0 {
		step = max(1, (len(data)-head)/room+1)
	} else if results > 0 {
		step = results
	}
	var b strings.Builder
	k := 0
	for _, l := range lines {
		if strings.HasPrefix(l, "Benchmark") {
			if k++; (k-1)%step != 0 {
				continue
			}
		}
		b.WriteString(l)
	}
	return []byte(b.String())
}

// seedFiles returns the results files the targets start from: the small
// ones whole, excerpts of the others.
func seedFiles(f *testing.F) [][]byte {
	var out [][]byte
	for _, pat := range []string{"testdata/*.txt", "testdata/compare/*.txt", "testdata/*.txt"} {
		paths, err := filepath.Glob(pat)
		if err != nil {
			f.Fatal(err)
		}
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			if len(data) > maxSeed {
				data = excerpt(data)
			}
			out = append(out, data)
		}
	}
	if len(out) == 0 {
		f.Fatal("no seed files")
	}
	return out
}

// fuzzFile writes data to a results file of its own.
func fuzzFile(t *testing.T, name string, data []byte) string {
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// checkExit fails t unless the command ended with one of the codes and,
// when it failed, wrote one line naming a file of the input (or a side).
func checkExit(t *testing.T, cmd string, code int, stderr string, ok []int, files ...string) {
	t.Helper()
	if strings.Contains(stderr, "internal error") {
		t.Fatalf("beff %s: %s", cmd, stderr)
	}
	good := false
	for _, c := range ok {
		good = good || code == c
	}
	if !good {
		t.Fatalf("beff %s: exit code %d; stderr:\n%s", cmd, code, stderr)
	}
	if code == exitOK || code == exitGateFail || code == exitInconclusive {
		return // a decision, on stdout
	}
	if lines := strings.Count(strings.TrimSuffix(stderr, "\n"), "\n") + 1; lines != 1 && cmd != "gate" {
		t.Fatalf("beff %s: %d lines on stderr, want 1:\n%s", cmd, lines, stderr)
	}
	named := false
	for _, f := range files {
		named = named || strings.Contains(stderr, f)
	}
	if !named {
		t.Fatalf("beff %s: the error names no input file:\n%s", cmd, stderr)
	}
}

// FuzzFold: fold, fold -json and fold -append of any file.
func FuzzFold(f *testing.F) {
	for _, s := range seedFiles(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzcount.One()
		p := fuzzFile(t, "in.txt", data)
		for _, args := range [][]string{{"fold", p}, {"fold", "-json", p}, {"fold", "-append", p}} {
			code, _, stderr := run(args...)
			checkExit(t, strings.Join(args[:len(args)-1], " "), code, stderr, []int{exitOK, exitBadInput}, p)
		}
	})
}

// FuzzCompare: compare and gate of any two files.
func FuzzCompare(f *testing.F) {
	seeds := seedFiles(f)
	for i, s := range seeds {
		f.Add(s, seeds[(i+1)%len(seeds)])
		f.Add(s, s)
	}
	f.Fuzz(func(t *testing.T, a, b []byte) {
		fuzzcount.One()
		pa, pb := fuzzFile(t, "a.txt", a), fuzzFile(t, "b.txt", b)
		code, _, stderr := run("compare", pa, pb)
		checkExit(t, "compare", code, stderr, []int{exitOK, exitBadInput}, pa, pb)
		code, _, stderr = run("gate", "-base", pa, "-new", pb, "-max-drop", "5")
		// the refusals about the sides name them
		checkExit(t, "gate", code, stderr, []int{exitOK, exitGateFail, exitInconclusive, exitBadInput}, pa, pb, "base", "new")
	})
}

// FuzzReport: a report of any file beside a good one renders; the file
// is skipped with a message naming it, or shown.
func FuzzReport(f *testing.F) {
	seeds := seedFiles(f)
	for _, s := range seeds {
		f.Add(s)
	}
	good, err := os.ReadFile("testdata/short-np2.txt")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzcount.One()
		pg, p := fuzzFile(t, "good.txt", good), fuzzFile(t, "in.txt", data)
		site := report.Load([]string{pg, p}, suites())
		for _, s := range site.Skipped {
			if !strings.Contains(s.Error(), p) {
				t.Fatalf("skipped without the file's name: %v", s)
			}
		}
		if len(site.Entries) == 0 {
			t.Fatal("the good file made no entry")
		}
		if _, err := site.Render(report.Options{Now: time.Unix(0, 0), Library: stubLibrary}); err != nil {
			t.Fatalf("render: %v", err)
		}
	})
}

// FuzzReadReference: every suite's reader of its reference code's output
// reads any file or refuses it with an error naming it; a figure it
// returns is a number the conformance table checks (CheckReference).
func FuzzReadReference(f *testing.F) {
	for _, p := range []string{"testdata/ref/ref-3.6-np2.short", "testdata/ref/ref-2.1-np2.prot", "testdata/ref/ref-skampi5-np2.sko"} {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzcount.One()
		dir := t.TempDir()
		prefix := filepath.Join(dir, "ref")
		for _, ext := range []string{".short", ".prot", ".sko"} {
			if err := os.WriteFile(prefix+ext, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		for _, s := range suites() {
			c, ok := s.(results.Conformer)
			if !ok {
				continue
			}
			ref, err := c.ReadReference(prefix)
			if err != nil {
				if !strings.Contains(err.Error(), prefix) {
					t.Fatalf("%s: error without the file: %v", c.Reference(), err)
				}
				continue
			}
			for _, fig := range ref.Figures {
				fig.CheckReference() // an error is a refusal, not a failure
				if fig.Name == "" || fig.Unit == "" {
					t.Fatalf("%s: a figure without name or unit: %+v", c.Reference(), fig)
				}
			}
		}
	})
}
