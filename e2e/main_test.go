package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestMain runs the tests from the module's root, where the package they
// build, the tools they start and the docs they check are, and removes
// the binaries they built (mpiBinary) after the last test.
func TestMain(m *testing.M) {
	if err := os.Chdir(".."); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		os.Exit(2)
	}
	clusterScript, _ = filepath.Abs("tools/cluster.sh")
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}
