package launch

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// BuildEnv is the environment under which go build compiles the binding
// (package mpi, -tags mpi) against the MPI on PATH: cgo's compiler is the
// library's compiler wrapper, MPICC (default mpicc); where MPI_PC names a
// pkg-config package instead (a library without a wrapper), its flags.
// CGO_CPPFLAGS carries BuildID: Go's build cache knows a compiler by its
// name only, so without it a build after a module swap would link the
// packages it compiled against the MPI before.
func BuildEnv() ([]string, error) {
	env, err := CompilerEnv()
	if err != nil {
		return nil, err
	}
	cpp := strings.TrimSpace(os.Getenv("CGO_CPPFLAGS") + " -DBEFF_MPI_BUILD=" + BuildID(env))
	return append(env, "CGO_CPPFLAGS="+cpp), nil
}

// CompilerEnv is cgo's compiler, or its flags, for the MPI on PATH.
func CompilerEnv() ([]string, error) {
	if pc := os.Getenv("MPI_PC"); pc != "" {
		cflags, err1 := exec.Command("pkg-config", "--cflags", pc).Output()
		libs, err2 := exec.Command("pkg-config", "--libs", pc).Output()
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("MPI_PC=%s: pkg-config does not know it", pc)
		}
		// cgo's default -O2 -g, which CGO_CFLAGS replaces: the timed loops are C
		return []string{"CGO_CFLAGS=-O2 -g " + strings.TrimSpace(string(cflags)), "CGO_LDFLAGS=" + strings.TrimSpace(string(libs))}, nil
	}
	cc := wrapper()
	if _, err := exec.LookPath(strings.Fields(cc + " x")[0]); err != nil {
		return nil, fmt.Errorf("no MPI compiler wrapper %s on PATH: load your MPI (module load …) or set MPICC", cc)
	}
	return []string{"CC=" + cc}, nil
}

// wrapper is MPICC, default mpicc.
func wrapper() string {
	if cc := os.Getenv("MPICC"); cc != "" {
		return cc
	}
	return "mpicc"
}

// BuildID identifies the MPI a build with env (CompilerEnv's) compiles
// and links against, in 16 hex digits: the compiler's resolved path, what
// the wrapper says it adds (-show of MPICH and Open MPI, -showme of Open
// MPI, --cray-print-opts of Cray's cc) or pkg-config's flags, and the
// mpi.h it finds, preprocessed. A module swap changes it; a rebuild of the
// same MPI does not.
func BuildID(env []string) string {
	h := sha256.New()
	cc, flags := wrapper(), []string(nil)
	for _, kv := range env {
		fmt.Fprintln(h, kv)
		if v, ok := strings.CutPrefix(kv, "CGO_CFLAGS="); ok {
			cc, flags = "cc", strings.Fields(v)
			if e := os.Getenv("CC"); e != "" {
				cc = e
			}
		}
	}
	argv := strings.Fields(cc)
	if len(argv) == 0 {
		return "none"
	}
	if p, err := exec.LookPath(argv[0]); err == nil {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			p = r
		}
		fmt.Fprintln(h, p)
	}
	if flags == nil {
		for _, ask := range []string{"-show", "-showme", "--cray-print-opts=all"} {
			h.Write(quietOutput(append(argv, ask), ""))
		}
	}
	h.Write(quietOutput(append(append(argv, flags...), "-E", "-x", "c", "-"), "#include <mpi.h>\n"))
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// quietOutput is what argv writes to stdout with stdin as its input
// (nothing when it fails to start), within 30 s.
func quietOutput(argv []string, stdin string) []byte {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdin = strings.NewReader(stdin)
	out, _ := cmd.Output()
	return out
}
