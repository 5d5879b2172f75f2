package launch

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// The check of a test binary before its job is launched: started on its
// own with CheckEnv=1 in its environment, the binary parses its flags,
// checks what needs no job (test flags, the selected suites' ranges and
// values), writes the lines below to stdout and exits without
// initialising MPI: 0 when its flags are good, 2 when not.
const (
	CheckEnv = "BEFF_CHECK_FLAGS"
	// CheckKey heads the verdict: "ok", or the one-line reason.
	CheckKey = "beff-check"
	// BuiltKey names the MPI of the mpi.h it was compiled with
	// ("Open MPI 4.1.4"); LoadedKey the first line of what the library
	// it loads says of itself (MPI_Get_library_version).
	BuiltKey  = "beff-mpi-built"
	LoadedKey = "beff-mpi-loaded"
	// CheckOK is the verdict of good flags.
	CheckOK = "ok"
)

// A Checked is what a test binary said of itself before a launch.
type Checked struct {
	Known  bool   // the binary knows the check (an older build does not)
	Err    string // why its flags are refused ("" when they are good)
	Built  string // the MPI of its mpi.h
	Loaded string // what the library it loads says of itself
}

// CheckBinary starts bin with args and CheckEnv=1, for at most 30 s, and
// reads what it says. An error is a binary that cannot be run at all (no
// such file, a library it needs not found): its message says so.
func CheckBinary(bin string, args []string) (Checked, error) {
	if _, err := os.Stat(bin); errors.Is(err, fs.ErrNotExist) {
		return Checked{}, fmt.Errorf("no test binary %s: build it with make build (or give -bin)", bin)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(os.Environ(), CheckEnv+"=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &limited{b: &stdout}, &limited{b: &stderr}
	err := cmd.Run()
	c := parseChecked(stdout.Bytes())
	if c.Known {
		return c, nil
	}
	if err != nil && strings.Contains(stderr.String(), "error while loading shared libraries") {
		return Checked{}, fmt.Errorf("%s cannot start: %s: it was built against an MPI library this environment does not have; rebuild it with the MPI you load (make build)",
			bin, strings.TrimSpace(firstLineOf(stderr.String())))
	}
	if ctx.Err() != nil {
		return Checked{}, fmt.Errorf("%s did not answer the check of its flags within 30 s", bin)
	}
	return Checked{}, nil // an older build: no check
}

// limited keeps the first 64 KiB written to it.
type limited struct{ b *bytes.Buffer }

func (l *limited) Write(p []byte) (int, error) {
	if room := 64<<10 - l.b.Len(); room > 0 {
		l.b.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// parseChecked reads the check's lines.
func parseChecked(out []byte) Checked {
	var c Checked
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ": ")
		if !ok {
			continue
		}
		switch k {
		case CheckKey:
			c.Known = true
			if v != CheckOK {
				c.Err = v
			}
		case BuiltKey:
			c.Built = v
		case LoadedKey:
			c.Loaded = v
		}
	}
	return c
}

func firstLineOf(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// Mismatch says why a binary that was compiled against built and loads
// loaded cannot run under launcher l ("" when it can, or when it cannot
// be told): a launcher of one MPI family starts processes of another
// that never find each other, and Open MPI 4 and 5 share the library's
// file name but not its runtime.
func (l *Launcher) Mismatch(built, loaded string) string {
	fam := l.Family
	if fam == Srun || fam == Generic {
		fam = l.Library
	}
	for _, lib := range []struct{ what, name string }{{"loads", loaded}, {"was compiled against", built}} {
		if lib.name == "" || fam == "" || fam == Srun || fam == Generic {
			continue
		}
		major, isOpen := openMPIMajor(lib.name)
		ok := isOpen == (fam == OpenMPI4 || fam == OpenMPI5)
		if ok && isOpen && major > 0 {
			ok = (major < 5) == (fam == OpenMPI4)
		}
		if !ok {
			name, _, _ := strings.Cut(lib.name, ", ") // Open MPI's "v4.1.4, package: …"
			return fmt.Sprintf("the test binary %s %s, but %s", lib.what, name, l.starts(fam))
		}
	}
	return ""
}

// starts says what the launcher starts processes of.
func (l *Launcher) starts(fam Family) string {
	if l.Family == fam {
		return fmt.Sprintf("the launcher %s is %s", l.Path, l.Version)
	}
	names := map[Family]string{OpenMPI4: "Open MPI 4", OpenMPI5: "Open MPI 5", Hydra: "MPICH and its kin (Hydra)"}
	return fmt.Sprintf("%s here starts processes of %s, the MPI whose compiler wrapper is on PATH", l.Path, names[fam])
}

// openMPIMajor tells Open MPI by its name ("Open MPI 4.1.4", "Open MPI
// v5.0.7, package: …") and its major version (0 when unknown).
func openMPIMajor(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, "Open MPI ")
	if !ok {
		return 0, false
	}
	rest = strings.TrimPrefix(rest, "v")
	major, _, _ := strings.Cut(rest, ".")
	n, _ := strconv.Atoi(major)
	return n, true
}
