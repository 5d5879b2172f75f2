package harness

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// The record is rank 0's output: the configuration lines, testing's
// benchmark lines and the harness's own lines, in the order they were
// written. Testing prints a benchmark's name before it runs and its
// figures after, and writes to file descriptor 1 wherever the harness
// cannot reach; a launcher that forwards rank 0's stdout may pass the two
// halves of a line on separately, and with stderr lines between them
// (Open MPI 5's prterun passes what it holds of a line without its end
// on with the next stderr text). So on rank 0 file descriptor 1 is a
// pipe, and one goroutine passes on what arrives there in whole lines,
// each with one write: to the file -out names, when given, and to the
// real stdout. The file is the record; stdout is a copy that a launcher
// reading less than a line at a time can still cut.

// maxLine bounds what the record holds of a line that has no end yet: a
// longer one is passed on in pieces.
const maxLine = 1 << 20

// A record passes rank 0's output on in whole s.lines.
type record struct {
	stdout *os.File // the real stdout, passed on to
	file   *os.File // the -out file, or nil
	saved  int      // a copy of the real stdout's descriptor
	done   chan struct{}

	mu       sync.Mutex
	err      error // the first failed write to file
	measured bool  // a benchmark line was written
}

// openOut creates the -out file on rank 0: a new file, so that no
// earlier result is overwritten ("" and nil when -out is not given).
func openOut(name string) (*os.File, error) {
	if name == "" {
		return nil, nil
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	switch {
	case err == nil:
		return f, nil
	case errors.Is(err, fs.ErrExist):
		return nil, fmt.Errorf("-out=%s: the file exists: beff writes its results to a new file and overwrites none", name)
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("-out=%s: no directory %s", name, filepath.Dir(name))
	}
	return nil, fmt.Errorf("-out=%s: %v", name, errors.Unwrap(err))
}

// startRecord makes file descriptor 1 a pipe whose lines go whole to
// file (if not nil) and to the real stdout. The pipe blocks: a
// non-blocking descriptor 1 would make writes that find it full fail.
func startRecord(file *os.File) (*record, error) {
	saved, err := syscall.Dup(1)
	if err != nil {
		return nil, fmt.Errorf("the record: dup: %v", err)
	}
	syscall.CloseOnExec(saved)
	var p [2]int
	if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC); err != nil {
		syscall.Close(saved)
		return nil, fmt.Errorf("the record: pipe: %v", err)
	}
	if err := syscall.Dup3(p[1], 1, 0); err != nil {
		syscall.Close(saved)
		syscall.Close(p[0])
		syscall.Close(p[1])
		return nil, fmt.Errorf("the record: dup3: %v", err)
	}
	syscall.Close(p[1])
	r := &record{stdout: os.NewFile(uintptr(saved), "stdout"), file: file, saved: saved, done: make(chan struct{})}
	go r.pass(os.NewFile(uintptr(p[0]), "record"))
	return r, nil
}

// pass copies in to the writers in whole lines until in ends.
func (r *record) pass(in *os.File) {
	defer close(r.done)
	defer in.Close()
	passLines(in, r.line)
}

// passLines calls line with each line of in, its newline included (the
// last one may have none), at most maxLine bytes at a time.
func passLines(in io.Reader, line func([]byte)) {
	br := bufio.NewReaderSize(in, maxLine)
	for {
		l, err := br.ReadSlice('\n')
		if len(l) > 0 {
			line(l)
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			return
		}
	}
}

// line writes one line to the file, then to stdout.
func (r *record) line(l []byte) {
	r.mu.Lock()
	if r.file != nil && r.err == nil {
		if _, err := r.file.Write(l); err != nil {
			r.err = err
		}
	}
	if isResultLine(l) {
		r.measured = true
	}
	r.mu.Unlock()
	r.stdout.Write(l)
}

// isResultLine reports whether l is a benchmark's result line (its name
// and iteration count at least), not only its name.
func isResultLine(l []byte) bool {
	const prefix = "Benchmark"
	if len(l) < len(prefix) || string(l[:len(prefix)]) != prefix {
		return false
	}
	for i, c := range l {
		if c == '\t' && i+1 < len(l) && l[i+1] != '\n' {
			return true
		}
	}
	return false
}

// finish ends the record: descriptor 1 becomes the real stdout again,
// which closes the pipe; what is still in it is passed on (for at most
// wait: a child process may hold the pipe open) and the file is synced
// and closed. It returns the first error writing the file. Calling it
// again does nothing.
func (r *record) finish(wait time.Duration) error {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	if r.saved < 0 {
		r.mu.Unlock()
		return nil
	}
	syscall.Dup3(r.saved, 1, 0)
	r.saved = -1
	r.mu.Unlock()
	select {
	case <-r.done:
	case <-time.After(wait):
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.file == nil {
		return nil
	}
	if err := r.file.Sync(); err != nil && r.err == nil {
		r.err = err
	}
	if err := r.file.Close(); err != nil && r.err == nil {
		r.err = err
	}
	if r.err != nil {
		return fmt.Errorf("writing the results to %s: %v", r.file.Name(), r.err)
	}
	return nil
}

// drop removes the file of a record that holds no measurement (a job
// refused after the file was created): nothing half-written stays.
func (r *record) drop() {
	if r == nil || r.file == nil {
		return
	}
	r.mu.Lock()
	measured := r.measured
	r.mu.Unlock()
	if !measured {
		os.Remove(r.file.Name())
	}
}

// finishRecord ends rank 0's record, if any; the other ranks have none.
func (s *Session) finishRecord() error { return s.rec.finish(2 * time.Second) }
