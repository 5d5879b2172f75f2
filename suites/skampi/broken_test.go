package skampi

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestVersionBefore: dotted versions compare field by field, what is not
// a number ends the comparison; a library's family and version come from
// the first line of its MPI_Get_library_version.
func TestVersionBefore(t *testing.T) {
	for _, c := range []struct {
		v, want string
		before  bool
	}{
		{"4.0.2", "4.3", true}, {"4.2.3", "4.3", true}, {"4.3", "4.3", false}, {"4.3.0", "4.3", false},
		{"4.10", "4.3", false}, {"3.4.3", "4.3", true}, {"4", "4.3", true}, {"x.y", "4.3", false}, {"", "4.3", false},
		{"5.0.7, package: Debian OpenMPI", "5.1", true}, {"5.1.0rc1", "5.1", false},
	} {
		assert.Equal(t, c.before, versionBefore(c.v, c.want), "%s < %s", c.v, c.want)
	}
	for lib, want := range map[string][2]string{
		"MPICH Version: 4.0.2": {"mpich", "4.0.2"}, "MPI VERSION : CRAY MPICH version 9.0.0 (ANL base 4.1.2)": {"mpich", "4.1.2"},
		"Open MPI v5.0.7, package: Debian OpenMPI": {"openmpi", "5.0.7, package: Debian OpenMPI"}, "Intel(R) MPI Library 2021.10": {"", ""},
	} {
		f, v := libraryVersion(lib)
		assert.Equal(t, want, [2]string{f, v}, lib)
	}
}

// TestBrokenIn: an operation is broken in the versions of its family
// before the fix, not in later ones nor in another family.
func TestBrokenIn(t *testing.T) {
	assert.True(t, BrokenIn("MPICH Version: 4.0.2", "gather-persistent"))
	assert.True(t, BrokenIn("MPI VERSION : CRAY MPICH version 9.0.0.1 (ANL base 4.1.2)", "gather-persistent"))
	assert.False(t, BrokenIn("MPICH Version: 4.3.0", "gather-persistent"))
	assert.False(t, BrokenIn("Open MPI v4.1.4, package: Debian OpenMPI", "gather-persistent"))
	assert.True(t, BrokenIn("Open MPI v5.0.7, package: Debian OpenMPI", "psend-precv"))
	assert.False(t, BrokenIn("MPICH Version: 4.0.2", "bcast"))
	for _, b := range Broken {
		for _, op := range b.Ops {
			assert.GreaterOrEqual(t, OpIndex(op), 0, "%s: an operation of the table", op)
		}
	}
}
