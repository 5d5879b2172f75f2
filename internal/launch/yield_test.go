package launch

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLibraryPolls: MPICH and the libraries built on it poll; Open MPI
// does not.
func TestLibraryPolls(t *testing.T) {
	for version, want := range map[string]bool{
		"MPICH Version:\t4.0.2":                      true,
		"Intel(R) MPI Library 2021.10 for Linux* OS": true,
		"MVAPICH2 Version: 2.3.7":                    true,
		"Open MPI v4.1.4, package: Debian OpenMPI":   false,
		"": false,
	} {
		assert.Equal(t, want, LibraryPolls(version), version)
	}
}

// TestYieldLib: BEFF_YIELD_LIB names the library; without it the script
// of the working directory builds it, and a missing script is an error
// that says the processes poll.
func TestYieldLib(t *testing.T) {
	t.Setenv("BEFF_YIELD_LIB", "/opt/yield.so")
	lib, err := YieldLib()
	require.NoError(t, err)
	assert.Equal(t, "/opt/yield.so", lib)

	t.Setenv("BEFF_YIELD_LIB", "")
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "tools"), 0o755))
	t.Chdir(dir)
	_, err = YieldLib()
	assert.ErrorContains(t, err, "the processes poll without yielding their cores")
	script := filepath.Join(dir, "tools", YieldName+".sh")
	require.NoError(t, os.WriteFile(script, []byte("#!/bin/sh\necho /built/"+YieldName+".so\n"), 0o755))
	lib, err = YieldLib()
	require.NoError(t, err)
	assert.Equal(t, "/built/"+YieldName+".so", lib)
}
