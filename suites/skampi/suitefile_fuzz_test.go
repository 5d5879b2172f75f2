package skampi

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/beff-suite/beff/internal/fuzzcount"
)

// FuzzParseSuites: a suite file is read or refused with an error that
// names the file (or the flag); nothing panics or runs away, whatever
// the processes of the job.
func FuzzParseSuites(f *testing.F) {
	f.Add(DefaultSuites, 2)
	paths, _ := filepath.Glob("testdata/*.yaml")
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, 4)
	}
	f.Fuzz(func(t *testing.T, data []byte, procs int) {
		fuzzcount.One()
		if procs < 1 || procs > 1<<20 {
			return
		}
		_, _, err := ParseSuites("s.yaml", data, Layers{Procs: procs, Base: base})
		if err != nil && !strings.Contains(err.Error(), "s.yaml") && !strings.Contains(err.Error(), "-skampi.") {
			t.Fatalf("error without the file: %v", err)
		}
	})
}

// FuzzReadPartial: a partial output is read or refused with an error
// naming the file; what is read plans a resume.
func FuzzReadPartial(f *testing.F) {
	for _, p := range []string{"testdata/skampi-short-np2.txt", "testdata/skampi-types-np2.txt"} {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		f.Add(data[:len(data)/2])
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzcount.One()
		p, err := ReadPartial(bytes.NewReader(data), "p.txt")
		if err != nil {
			if !strings.Contains(err.Error(), "p.txt") {
				t.Fatalf("error without the file: %v", err)
			}
			return
		}
		p.Plan(nil)
	})
}
