package launch

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMismatch(t *testing.T) {
	ompi4 := &Launcher{Path: "/usr/bin/mpirun", Family: OpenMPI4, Version: "Open MPI 4.1.4"}
	ompi5 := &Launcher{Path: "/opt/ompi/bin/mpirun", Family: OpenMPI5, Version: "Open MPI 5.0.7"}
	hydra := &Launcher{Path: "/usr/bin/mpiexec.mpich", Family: Hydra, Version: "Hydra 4.0.2"}
	srunOMPI := &Launcher{Path: "/usr/bin/srun", Family: Srun, Version: "Slurm 22.05.8", Library: OpenMPI4}
	srun := &Launcher{Path: "/usr/bin/srun", Family: Srun, Version: "Slurm 22.05.8"}
	other := &Launcher{Path: "/usr/bin/aprun", Family: Generic, Version: "aprun (ALPS) 6.6.59"}
	const (
		o4     = "Open MPI 4.1.4"
		o4lib  = "Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4, repo rev: v4.1.4, May 26, 2022"
		o5lib  = "Open MPI v5.0.7, package: Debian OpenMPI"
		mpich  = "MPICH 4.0.2"
		mpichL = "MPICH Version: 4.0.2 MPICH Release date: Thu May 19 11:49:41 CDT 2022"
		intel  = "Intel(R) MPI Library 2021.10 for Linux* OS"
	)
	tests := []struct {
		name          string
		l             *Launcher
		built, loaded string
		want          string // a part of the reason, "" for none
	}{
		{"Open MPI 4 under its own", ompi4, o4, o4lib, ""},
		{"MPICH under Hydra", hydra, mpich, mpichL, ""},
		{"Intel MPI under Hydra", hydra, "Intel MPI 2021.10", intel, ""},
		{"Open MPI under Hydra", hydra, o4, o4lib, "loads Open MPI v4.1.4, but the launcher /usr/bin/mpiexec.mpich is Hydra 4.0.2"},
		{"MPICH under Open MPI", ompi4, mpich, mpichL, "loads MPICH Version: 4.0.2"},
		{"Open MPI 4 under 5", ompi5, o4, o4lib, "is Open MPI 5.0.7"},
		{"compiled against 4, loads 5, under 5", ompi5, o4, o5lib, "was compiled against Open MPI 4.1.4"},
		{"srun for Open MPI, binary of MPICH", srunOMPI, mpich, mpichL, "srun here starts processes of Open MPI 4"},
		{"srun for Open MPI, binary of Open MPI", srunOMPI, o4, o4lib, ""},
		{"srun of an unknown MPI", srun, mpich, mpichL, ""},
		{"a launcher beff does not know", other, mpich, mpichL, ""},
		{"an older binary that says nothing", ompi4, "", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.l.Mismatch(tc.built, tc.loaded)
			if tc.want == "" {
				assert.Empty(t, got)
				return
			}
			assert.Contains(t, got, tc.want)
			assert.NotContains(t, got, "package:", "the library's name, not its whole line")
		})
	}
}

func TestParseChecked(t *testing.T) {
	c := parseChecked([]byte("beff-mpi-built: MPICH 4.0.2\nbeff-mpi-loaded: MPICH Version: 4.0.2\nbeff-check: -beffio.T=-1: out of range\n"))
	assert.Equal(t, Checked{Known: true, Err: "-beffio.T=-1: out of range", Built: "MPICH 4.0.2", Loaded: "MPICH Version: 4.0.2"}, c)
	assert.Equal(t, Checked{Known: true}, parseChecked([]byte("beff-check: ok\n")))
	assert.False(t, parseChecked([]byte("PASS\n")).Known, "an older binary")
}

// TestCheckBinary runs scripts in place of a test binary: one that
// answers the check, one that cannot find its library, an older one.
func TestCheckBinary(t *testing.T) {
	dir := t.TempDir()
	script := func(name, body string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755))
		return p
	}
	good := script("good", `[ "$BEFF_CHECK_FLAGS" = 1 ] || exit 9
case "$*" in *-beff.mme*) echo "beff-check: flag provided but not defined: -beff.mme"; exit 2;; esac
echo "beff-mpi-built: MPICH 4.0.2"; echo "beff-check: ok"`)
	c, err := CheckBinary(good, []string{"-test.short"})
	require.NoError(t, err)
	assert.Equal(t, Checked{Known: true, Built: "MPICH 4.0.2"}, c)
	c, err = CheckBinary(good, []string{"-beff.mme", "5"})
	require.NoError(t, err)
	assert.Equal(t, "flag provided but not defined: -beff.mme", c.Err)

	lost := script("lost", `echo "./beff.test: error while loading shared libraries: libmpich.so.12: cannot open shared object file: No such file or directory" >&2; exit 127`)
	_, err = CheckBinary(lost, nil)
	assert.ErrorContains(t, err, "libmpich.so.12: cannot open shared object file")
	assert.ErrorContains(t, err, "rebuild it with the MPI you load (make build)")

	old := script("old", `echo "beff: cannot run benchmarks" >&2; exit 2`)
	c, err = CheckBinary(old, nil)
	require.NoError(t, err)
	assert.False(t, c.Known, "an older build is launched unchecked")

	_, err = CheckBinary(filepath.Join(dir, "none"), nil)
	assert.ErrorContains(t, err, "no test binary")
}
