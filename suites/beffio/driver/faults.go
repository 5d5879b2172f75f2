package driver

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/beff-suite/beff/internal/mpi"
	"github.com/beff-suite/beff/suites/beffio"
)

// agreeIO stops the whole job after an MPI-IO error on any process of the
// partition: rank 0 names the pattern, the files are removed, every rank
// exits with ExitIO. All ranks of the partition must reach it.
func (r *run) agreeIO(p *partition, where string, err error) {
	failed := []int64{0}
	if err != nil {
		failed[0] = 1
		fmt.Fprintf(r.s.Log, "beff: rank %d: b_eff_io %s: %v%s\n", r.s.Rank, where, err, fullNote(r.st.Dir))
	}
	if p.g.MaxAll(failed)[0] == 0 {
		return
	}
	r.stopIO(p, fmt.Sprintf("b_eff_io stopped by an I/O error at %s (see above); the run is NOT VALID; scratch files removed", where))
}

// stopIO ends the job after an I/O error that the partition agreed on:
// every rank of the partition removes its files, then rank 0 prints the
// message and aborts the job (ranks of other partitions may be waiting in a
// barrier: MPI_Abort takes them down instead of leaving them hanging).
func (r *run) stopIO(p *partition, msg string) {
	r.cleanupLocal()
	p.comm.Barrier()
	if r.s.IsRoot() {
		fmt.Fprintln(r.s.Log, "beff: "+msg)
	}
	time.Sleep(100 * time.Millisecond) // let stderr drain before the abort
	r.s.Abort(ExitIO)
}

// cleanupLocal removes this rank's files without collectives (the job is
// stopping), and the directory the run created. Every rank removes the
// directory once it is empty; the files of others left in it (of a rank
// cut off, say) are removed by a few ranks spread over the job (sweeper),
// so that the metadata work stays O(p), not p ranks × p files. A second
// pass catches a file whose creation was under way on the main thread
// when a termination ran it.
func (r *run) cleanupLocal() {
	if r.st.Keep || r.st.Dir == "" {
		return
	}
	sweep := sweeper(r.s.Rank, r.s.Size)
	for pass := 0; pass < 2; pass++ {
		for _, f := range r.files {
			unlinkHeld(f)
		}
		if sweep {
			if es, err := os.ReadDir(r.st.Dir); err == nil {
				for _, e := range es {
					unlinkHeld(filepath.Join(r.st.Dir, e.Name()))
				}
			}
		}
		os.Remove(r.st.Dir) // once empty
		if pass == 0 {
			time.Sleep(100 * time.Millisecond)
		}
	}
}

// sweepers is how many ranks, spread over the job, remove what others left
// in the scratch directory when the job is stopped.
const sweepers = 8

// sweeper says whether rank, of size ranks, is one of them: ranks 0, k,
// 2k, … with k = ⌈size/sweepers⌉ (every rank of a small job).
func sweeper(rank, size int) bool {
	k := max(1, (size+sweepers-1)/sweepers)
	return rank%k == 0
}

// held are the removed files this process keeps open until it exits.
var held []*os.File

// mostHeld bounds them (beyond it, files are removed without).
const mostHeld = 256

// unlinkHeld removes a file's name while this process holds it open, so
// that the removal returns at once: removing the last name of a file whose
// pages the kernel is writing back waits for that write (1.3 s for 1.3 GB
// on the CI machine's disk), and Open MPI kills a process 1 s after it
// asked it to end. Held open, the file's data goes when the process has
// exited, however it ends.
func unlinkHeld(path string) {
	if len(held) < mostHeld {
		if f, err := os.Open(path); err == nil {
			held = append(held, f)
		}
	}
	os.Remove(path)
}

// fullNote says that the file system of dir is full, if it is.
func fullNote(dir string) string {
	var fs syscall.Statfs_t
	if syscall.Statfs(dir, &fs) == nil && fs.Bavail == 0 {
		return " (the file system is full)"
	}
	return ""
}

// checkWritten checks, outside the timed region, that the data written is
// in the file: some MPI-IO layers report a full disk only on stderr (Open
// MPI 4.1's OMPIO does) and return success. A file of the partition is
// looked at once, by its rank 0, up to the furthest end any process wrote
// (one stat per pattern, not one per process on the same file); a
// process's own file by that process.
func (r *run) checkWritten(p *partition, t beffio.PatternType, path string, end int64) error {
	if t != beffio.Separated {
		end = p.g.MaxAll([]int64{end})[0]
		if !p.g.IsRoot() {
			return nil
		}
	}
	late, err := checkSize(path, end)
	if late && !r.saidLate {
		r.saidLate = true
		fmt.Fprintf(r.s.Log, "beff: rank %d: b_eff_io: %s showed the size the writes reached only after a wait: this client caches file attributes (the file system is not coherent at once across nodes)\n", r.s.Rank, path)
	}
	return err
}

// staleWait is how long checkSize waits for a client's view of a file to
// catch up with what other clients wrote: file systems whose clients
// cache attributes (GlusterFS's md-cache and FUSE's attribute timeout of
// 1 s, NFS's actimeo) show the size another node's writes reached late.
const staleWait = 5 * time.Second

// checkSize reports an error when the file is shorter than end: the data
// written up to end is not in it. A file that is short at first is looked
// at again for up to staleWait (outside the timed region) before the
// data counts as lost; late is set when it caught up.
func checkSize(path string, end int64) (late bool, err error) {
	start := time.Now()
	for wait := 10 * time.Millisecond; ; wait *= 2 {
		fi, err := os.Stat(path)
		if err != nil {
			return false, err
		}
		if fi.Size() >= end {
			return wait > 10*time.Millisecond, nil // looked at more than once
		}
		if time.Since(start) >= staleWait {
			return false, fmt.Errorf("%s is %d bytes after the writes and %.0f s of waiting, the data written reaches byte %d: the MPI library or the file system lost data%s",
				path, fi.Size(), staleWait.Seconds(), end, fullNote(filepath.Dir(path)))
		}
		time.Sleep(wait)
	}
}

// dropCaches empties the page cache between the write and the read phase:
// drop_caches where permitted (rank 0 of each node), else
// POSIX_FADV_DONTNEED on every file this rank knows.
func (r *run) dropCaches() {
	s := r.s
	syscall.Sync()
	r.world.Barrier()
	if r.st.DropCaches == "drop_caches" {
		node, err := r.world.Comm.SplitShared()
		s.Must("MPI_Comm_split_type", err)
		if nr, _ := node.Rank(); nr == 0 {
			if err := os.WriteFile("/proc/sys/vm/drop_caches", []byte("3\n"), 0); err != nil {
				fmt.Fprintf(s.Log, "beff: rank %d: dropping the page cache: %v\n", s.Rank, err)
			}
		}
		node.Free()
	} else {
		for _, f := range r.files {
			fadviseDontNeed(f)
		}
	}
	r.world.Barrier()
	s.Logf("b_eff_io: page cache dropped (%s) before the read phase", r.st.DropCaches)
}

// corrupt overwrites the first 8 bytes of the first partition's scatter
// file (tests only: the read phase must report one bad chunk).
func (r *run) corrupt() {
	if r.s.IsRoot() {
		f, err := os.OpenFile(r.path(r.parts[0].n, beffio.Scatter, 0), os.O_WRONLY, 0)
		if err == nil {
			f.WriteAt([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, 0)
			f.Sync()
			f.Close()
		}
	}
	r.world.Barrier()
}

// sharedPointer positions the shared file pointer at base. Where the MPI-IO
// layer cannot (no file locking, for one), every rank of the partition
// learns it and the partition's shared type switches to explicit offsets
// (write_at_all at the offsets write_ordered would use): the run goes on
// and the lines say sharedfp 0, which makes it NOT VALID.
func (r *run) sharedPointer(p *partition, fh mpi.File, base int64, where string) error {
	err := fh.SeekShared(base)
	failed := []int64{0}
	if err != nil {
		failed[0] = 1
		fmt.Fprintf(r.s.Log, "beff: rank %d: b_eff_io %s: MPI_File_seek_shared: %v\n", r.s.Rank, where, err)
	}
	if p.g.MaxAll(failed)[0] != 0 {
		p.explicit = true
		r.s.Logf("b_eff_io: partition %d: the shared file pointer does not work here; type shared uses explicit offsets (the run is NOT VALID)", p.n)
	}
	return nil
}
