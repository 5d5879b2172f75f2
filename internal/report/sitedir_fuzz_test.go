package report

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/beff-suite/beff/internal/fuzzcount"
	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/internal/results/resultstest"
)

// FuzzSiteOver: whatever the manifest of an earlier site says, a report
// over it keeps the files a person added (or refuses, changing nothing),
// touches nothing outside the site's directory and leaves no temporary
// directory beside it.
func FuzzSiteOver(f *testing.F) {
	f.Add([]byte("index.html\ncompare.html\nruns/x-1.html\nassets/report.js\n"))
	f.Add([]byte("notes.md\nruns/mine.html\n../outside.txt\n/etc/passwd\nruns/../notes.md\n"))
	f.Add([]byte(""))
	in := filepath.Join(f.TempDir(), "x.txt")
	if err := os.WriteFile(in, []byte(resultstest.File(1, 1, 1, "full", value)), 0o644); err != nil {
		f.Fatal(err)
	}
	mine := map[string]string{"notes.md": "my notes", "runs/mine.html": "my page", "outside.txt": "beside the site"}
	f.Fuzz(func(t *testing.T, manifestText []byte) {
		fuzzcount.One()
		site := Load([]string{in}, []results.Suite{resultstest.Suite{}})
		parent := t.TempDir()
		dir := filepath.Join(parent, "site")
		opt := Options{Now: now, Library: stubLibrary}
		if err := site.Write(dir, opt); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, manifestName), manifestText, 0o644); err != nil {
			t.Fatal(err)
		}
		for name, text := range mine {
			p := filepath.Join(dir, filepath.FromSlash(name))
			if name == "outside.txt" {
				p = filepath.Join(parent, name)
			}
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := site.Write(dir, opt); err != nil && !errors.Is(err, ErrRefusedDir) {
			t.Fatalf("neither written nor refused: %v", err)
		}
		for name, text := range mine {
			p := filepath.Join(dir, filepath.FromSlash(name))
			if name == "outside.txt" {
				p = filepath.Join(parent, name)
			}
			if b, err := os.ReadFile(p); err != nil || string(b) != text {
				t.Fatalf("%s: lost or changed (%q, %v) under the manifest %q", name, b, err, manifestText)
			}
		}
		if ents, _ := os.ReadDir(parent); len(ents) != 2 {
			t.Fatalf("beside the site: %v", ents)
		}
	})
}
