package resultstest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// UpdateEnv, set to 1, is the one way to regenerate what tests compare
// with: golden outputs, fixtures made from code and the documents written
// from the code (BEFF_UPDATE=1 go test ./...).
const UpdateEnv = "BEFF_UPDATE"

// Update reports whether this test run rewrites what it compares with.
func Update() bool { return os.Getenv(UpdateEnv) == "1" }

// WriteShared writes data to testdata/name of the calling package and to
// every other copy of it in the module (a testdata/name of another
// package): fixtures that several packages read stay one (a test in e2e
// checks that the copies are identical).
func WriteShared(t testing.TB, name string, data []byte) {
	t.Helper()
	root, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			break
		}
		up := filepath.Dir(root)
		if up == root {
			t.Fatal("no go.mod above the package")
		}
		root = up
	}
	paths := []string{filepath.Join("testdata", name)}
	filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() == name && filepath.Base(filepath.Dir(path)) == "testdata" && !strings.Contains(path, "/.git/") {
			paths = append(paths, path)
		}
		return nil
	})
	for _, p := range paths {
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
