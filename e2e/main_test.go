package e2e

import (
	"fmt"
	"os"
	"sync"
	"testing"
)

// TestMain runs the tests from the module's root, where the package they
// build, the tools they start and the docs they check are; what the tests
// leave for the end (the built binaries) is removed after them.
func TestMain(m *testing.M) {
	if err := os.Chdir(".."); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		os.Exit(2)
	}
	code := m.Run()
	cleanups.Lock()
	for _, f := range cleanups.funcs {
		f()
	}
	cleanups.Unlock()
	os.Exit(code)
}

// cleanups are what atEnd gathered.
var cleanups struct {
	sync.Mutex
	funcs []func()
}

// atEnd runs f after the last test.
func atEnd(f func()) {
	cleanups.Lock()
	defer cleanups.Unlock()
	cleanups.funcs = append(cleanups.funcs, f)
}
