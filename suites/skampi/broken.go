package skampi

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// BrokenOps are operations a library gets wrong before a version.
type BrokenOps struct {
	Family, Fixed string // libraryVersion's family; fixed in this version
	Ops           []string
	Why           string
}

// Broken are operations that libraries before a version deliver wrong
// data in (beff's validation finds them): the driver leaves them out
// there, with a note, and the tests of the loops do not run them there.
var Broken = []BrokenOps{
	{"mpich", "4.3", []string{"gather-persistent"},
		"delivers stale blocks when started again: the root's own block is not copied (pmodels/mpich#7078, fixed in 4.3; beff's validation found it in 4.0.2 and 4.2.1)"},
	{"mpich", "5.0", []string{"scatter-persistent"},
		"sends the blocks of its first start again (its schedule's state is not renewed: pmodels/mpich#7550, 2025; beff's validation found it in 4.0.2 and 4.2.1, and an MPI error on 9 processes)"},
	{"mpich", "4.2", []string{"allgather-persistent"},
		"delivers stale blocks when started again (beff's validation found it in 4.0.2; 4.2.1 is right)"},
	{"openmpi", "5.1", []string{"psend-precv"},
		"hangs on a job of 3 or more processes, and its set-up messages truncate the others' MPI_Ibarrier (5.0.7 here; open-mpi/ompi#12969, fixes backported to v5.0.x in #14295, 2026: left out before 5.1 as the version with them is not known)"},
}

func (b BrokenOps) In(library string) bool {
	family, v := libraryVersion(library)
	return family == b.Family && versionBefore(v, b.Fixed)
}

// anlBase is the MPICH version a derived library names (Cray MPICH:
// "CRAY MPICH version 9.0.0 (ANL base 4.1.2)").
var anlBase = regexp.MustCompile(`\(ANL base (\d[\d.]*)\)`)

// libraryVersion reads the first line of MPI_Get_library_version: the
// family ("mpich" for MPICH and the libraries that name their MPICH base,
// "openmpi") and the version its bugs go by ("" for others).
func libraryVersion(library string) (family, version string) {
	if v, ok := strings.CutPrefix(library, "MPICH Version:"); ok {
		return "mpich", strings.TrimSpace(v)
	}
	if m := anlBase.FindStringSubmatch(library); m != nil {
		return "mpich", m[1]
	}
	if v, ok := strings.CutPrefix(library, "Open MPI v"); ok {
		return "openmpi", v
	}
	return "", ""
}

// BrokenIn says whether library (the first line of its
// MPI_Get_library_version) is known to get operation op wrong.
func BrokenIn(library, op string) bool {
	for _, b := range Broken {
		if b.In(library) && slices.Contains(b.Ops, op) {
			return true
		}
	}
	return false
}

// versionBefore says whether dotted version v is below want (numbers
// compared field by field; a field that is not a number ends the
// comparison, as does the shorter version).
func versionBefore(v, want string) bool {
	v = strings.TrimSpace(v)
	if end := strings.IndexFunc(v, func(r rune) bool { return r != '.' && (r < '0' || r > '9') }); end >= 0 {
		v = v[:end] // "5.0.7, package: …" → "5.0.7"
	}
	if v == "" {
		return false
	}
	a, b := strings.Split(v, "."), strings.Split(want, ".")
	for i := range min(len(a), len(b)) {
		x, err1 := strconv.Atoi(a[i])
		y, err2 := strconv.Atoi(b[i])
		if err1 != nil || err2 != nil {
			return false
		}
		if x != y {
			return x < y
		}
	}
	return len(a) < len(b)
}
