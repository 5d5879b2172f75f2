package beffio

import (
	"os"
	"path/filepath"
	"strings"
)

// A run's files live in a directory of its own, made fresh under
// -beffio.dir (or the temporary directory) with the prefix ScratchPrefix.
// Its processes remove it when the run ends or is stopped; when a
// launcher killed them first, the launching side removes it after the
// job (RemoveScratch), having read its name from the run's log line
// (ScratchLog, ScratchDirOf).
const (
	ScratchPrefix = "beffio-"
	// ScratchLog is the format of the log line that starts a run: the
	// processes, partitions, T, T per partition, MPART and the directory
	// (last).
	ScratchLog = "b_eff_io on %s: partitions %v, T = %g s (%.1f s per partition), MPART = %d bytes, dir %s"
)

// ScratchDirOf returns the directory that a run's log line names.
func ScratchDirOf(line string) (string, bool) {
	if !strings.Contains(line, "b_eff_io on ") {
		return "", false
	}
	i := strings.LastIndex(line, ", dir ")
	if i < 0 {
		return "", false
	}
	dir := line[i+len(", dir "):]
	if !strings.HasPrefix(filepath.Base(dir), ScratchPrefix) {
		return "", false
	}
	return dir, true
}

// IsScratchFile reports whether name is one a run writes into its
// directory: its data files, the lock files and shared file pointers
// MPI-IO keeps beside them, and its probes.
func IsScratchFile(name string) bool {
	switch {
	case strings.HasPrefix(name, "beffio_"):
		return strings.HasSuffix(name, ".dat") || strings.Contains(name, ".dat-") && strings.HasSuffix(name, ".lock")
	case strings.HasPrefix(name, ".beffio_"):
		return strings.Contains(name, ".shfp")
	}
	return strings.HasPrefix(name, ".beffio-probe-")
}

// RemoveScratch removes a run's directory with the files it wrote, and
// nothing else: not a link, not a directory without the prefix, not one
// that holds other files. It reports whether the directory is gone.
func RemoveScratch(dir string) bool {
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() || !strings.HasPrefix(filepath.Base(dir), ScratchPrefix) {
		return false
	}
	es, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range es {
		if IsScratchFile(e.Name()) {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
	return os.Remove(dir) == nil
}
