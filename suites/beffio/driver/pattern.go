package driver

import (
	"fmt"
	"testing"

	"github.com/beff-suite/beff/harness"
	"github.com/beff-suite/beff/internal/mpi"
	"github.com/beff-suite/beff/suites/beffio"
	"github.com/beff-suite/beff/suites/beffio/loops"
)

// calls runs the calls of one pattern on this rank and keeps count of them
// and of the chunks that failed validation.
type calls struct {
	c          *loops.PatternCalls
	buf        *mpi.Buffer
	fn         func(p *loops.PatternCalls, c0, k int64, buf *mpi.Buffer) (int64, loops.ChunkFault, error) // loops.RunCalls
	done, errs int64
	fault      loops.ChunkFault // the first bad chunk
}

// run runs the next k calls.
func (c *calls) run(k int64) error {
	if k <= 0 || c.c.L == 0 {
		return nil
	}
	e, f, err := c.fn(c.c, c.done, k, c.buf)
	if e > 0 && c.errs == 0 {
		c.fault = f
	}
	c.errs += e
	c.done += k
	return err
}

// A measured pattern is what its calls took.
type measured struct {
	stop   harness.Stopped // the stop loop of a time-driven write
	capped bool            // rank 0: the data budget stopped the pattern before its time
}

// pattern measures one pattern and returns the bytes it moved (all ranks)
// and its time (rank 0 of the partition). Under the paper's rules the clock
// starts after the file is positioned for the pattern and stops after the
// sync and a barrier; under the reference's it starts before the
// positioning, and the sync has a barrier before it too.
func (r *run) pattern(b *testing.B, p *partition, fh mpi.File, path string, acc beffio.Access, pat beffio.AccessPattern, base int64, tPart float64) (int64, float64) {
	where := fmt.Sprintf("partition %d, %s, type %s, pattern %d", p.n, acc, pat.Type, pat.No)
	defer r.s.Watch("b_eff_io "+where, seconds(tPart), "beffio.watchdog", *r.f.watchdog)()
	c := &calls{buf: r.buf, fn: r.ioCalls, c: &loops.PatternCalls{File: fh, Read: acc == beffio.Read, Layout: ioLayouts[pat.Type], Len: pat.Mem, L: pat.L,
		N: p.n, Rank: p.g.Rank, Base: base, Lseg: p.seg.Lseg, Pattern: pat.No, Stamp: int(acc)}}
	if acc == beffio.Read {
		c.c.Stamp = int(beffio.LastWriter(r.st.Rewrite, pat.Type)) // what the write stamped
	}
	ref := r.st.Rules == beffio.RulesReference
	if !ref {
		r.position(p, fh, pat, base, acc, c.c, where)
	}
	timeDriven := acc == beffio.Write && pat.Type <= beffio.Separated
	p.g.Barrier()
	t0 := r.clock()
	if ref {
		r.position(p, fh, pat, base, acc, c.c, where)
	}
	var m measured
	switch {
	case !timeDriven:
		r.agreeIO(p, where, c.run(p.counts[pat.No]))
	case r.st.Stop == beffio.StopBarrier:
		m = r.untilBarrier(p, c, pat, tPart, t0, where)
	default:
		m = r.untilGeometric(p, c, pat, tPart, t0, where)
	}
	if acc != beffio.Read {
		if ref {
			p.g.Barrier()
		}
		r.agreeIO(p, where+": MPI_File_sync", fh.Sync())
	}
	p.g.Barrier()
	el := p.maxTime(r.clock() - t0)
	if acc != beffio.Read && c.done > 0 && pat.L > 0 {
		end := pat.Offset(base, p.n, p.g.Rank, c.done-1, pat.Chunks()-1, p.seg.Lseg) + pat.L
		err := r.checkWritten(p, pat.Type, path, end)
		if err != nil && pat.Type == beffio.Shared && !p.explicit {
			err = fmt.Errorf("%v: the processes' MPI_File_write_shared calls overwrote each other, the shared file pointer is not coherent on this file system (%s); -beffio.sharedfp=off measures type shared with explicit offsets instead (the run is then NOT VALID)", err, r.st.FS)
		}
		r.agreeIO(p, where+": checking the file after MPI_File_sync", err)
	}
	if acc == beffio.Write && timeDriven {
		count := []int64{c.done}
		p.g.Bcast(count)
		p.counts[pat.No] = count[0]
	}
	nerr := r.reportErrors(p, where, c.errs, c.fault)
	stopMs := 0.0
	if timeDriven {
		stopMs = p.maxTime(m.stop.Seconds) * 1e3
	}
	bytes := pat.Bytes(c.done, p.n)
	if p.g.IsRoot() {
		r.reportPattern(b, p, pat, c.done, bytes, el, nerr, timeDriven, m, stopMs)
	}
	return bytes, el
}

// position gives the file the pattern's hints and places it at the
// pattern's region: the scatter fileview, the shared file pointer (or
// explicit offsets) or the individual file pointer.
func (r *run) position(p *partition, fh mpi.File, pat beffio.AccessPattern, base int64, acc beffio.Access, c *loops.PatternCalls, where string) {
	var err error
	if h := beffio.SelectHints(r.st.Hints, p.n, acc, pat.Type, pat.L); h != nil {
		info := r.info(p.n, acc, pat.Type, pat.L)
		err = fh.SetInfo(info)
		info.Free()
		r.agreeIO(p, where+": MPI_File_set_info", err)
	}
	rank := int64(p.g.Rank)
	switch pat.Type {
	case beffio.Scatter:
		err = fh.SetViewScatter(base+rank*pat.L, pat.L, p.n, mpi.InfoNull())
	case beffio.Shared:
		if r.st.SharedFP == "off" {
			p.explicit = true
		}
		if !p.explicit {
			err = r.sharedPointer(p, fh, base, where)
		}
		c.ExplicitOffsets = p.explicit
	case beffio.Separated:
		err = fh.SeekSet(base)
	default:
		err = fh.SeekSet(rank*p.seg.Lseg + base)
	}
	r.agreeIO(p, where+": positioning", err)
}

// untilGeometric runs a time-driven write with the geometric stop rule:
// batches that at most double, one decision of rank 0 after each
// (beffio.NextBatch), within the call cap of the data budget.
func (r *run) untilGeometric(p *partition, c *calls, pat beffio.AccessPattern, tPart, t0 float64, where string) measured {
	target := beffio.PatternTime(tPart, pat.U, r.sumU)
	limit := beffio.CallCap(r.st.MaxData, len(r.parts), r.table, pat, p.n)
	var m measured
	var err error
	var last int64
	m.stop = p.g.Until(beffio.NextBatch(0, 0, 0, target), harness.Until{
		Step: func(k int64) []float64 {
			err, last = c.run(k), k
			failed := 0.0
			if err != nil {
				failed = 1
			}
			return []float64{r.clock() - t0, failed} // one reduction: the time and whether a call failed
		},
		Decide: func(max []float64) (int64, int64) {
			if max[1] != 0 {
				return 0, 1
			}
			next := beffio.NextBatch(c.done, last, max[0], target)
			if limit > 0 && next > 0 {
				if c.done >= limit {
					next, m.capped = 0, true
				} else {
					next = min(next, limit-c.done)
				}
			}
			return next, 0
		},
	})
	if m.stop.Verdict != 0 {
		r.agreeIO(p, where, err) // stops the job
	}
	return m
}

// untilBarrier runs a time-driven write with the reference code's rule, in
// C: one call, a barrier, rank 0 decides on its clock (go on while
// elapsed·(r+1)/r ≤ the pattern's time: mpi's beffio_ref_continue), a
// broadcast; within the call cap of the data budget.
func (r *run) untilBarrier(p *partition, c *calls, pat beffio.AccessPattern, tPart, t0 float64, where string) measured {
	target := beffio.PatternTime(tPart, pat.U, r.sumU)
	limit := beffio.CallCap(r.st.MaxData, len(r.parts), r.table, pat, p.n)
	u, err := loops.RunCallsUntil(c.c, p.comm, t0, target, limit, c.buf)
	c.done = u.Done
	r.agreeIO(p, where, err)
	return measured{stop: harness.Stopped{Decisions: u.Decisions, Seconds: u.Seconds}, capped: u.Capped}
}

// reportPattern writes the metrics of a pattern (rank 0 of the partition).
func (r *run) reportPattern(b *testing.B, p *partition, pat beffio.AccessPattern, done, bytes int64, el float64, nerr int64, timeDriven bool, m measured, stopMs float64) {
	b.ReportMetric(float64(bytes)/el/1e6, beffio.MetricMBps)
	b.ReportMetric(float64(done), beffio.MetricReps)
	b.ReportMetric(float64(bytes)/1e6, beffio.MetricMB)
	b.ReportMetric(el, beffio.MetricSeconds)
	b.ReportMetric(float64(nerr), beffio.MetricErrors)
	if timeDriven {
		b.ReportMetric(float64(m.stop.Decisions), beffio.MetricDecisions)
		b.ReportMetric(stopMs, beffio.MetricStopMs)
	}
	if pat.Type == beffio.Shared {
		fp := 1.0
		if p.explicit {
			fp = 0
		}
		b.ReportMetric(fp, beffio.MetricSharedFP)
	}
	if timeDriven && m.capped {
		b.ReportMetric(1, beffio.MetricCapped)
	}
}

// reportErrors sums the validation errors of a pattern on every rank of
// the partition and prints the first failure of every rank that had one.
func (r *run) reportErrors(p *partition, where string, errs int64, f loops.ChunkFault) int64 {
	in := []int64{errs, f.Rep, f.Offset, int64(f.ExpectFirst), int64(f.GotFirst), int64(f.ExpectLast), int64(f.GotLast)}
	total := p.g.SumAll(in[:1])[0]
	if total == 0 {
		return 0
	}
	for rk, rec := range p.g.Gather(in) {
		if rec[0] == 0 {
			continue
		}
		fmt.Fprintf(r.s.Log, "beff: b_eff_io validation error: %s, rank %d: %d bad chunk(s); first in call %d at file offset %d: first element %#x (expected %#x), last element %#x (expected %#x)\n",
			where, rk, rec[0], rec[1], rec[2], uint64(rec[4]), uint64(rec[3]), uint64(rec[6]), uint64(rec[5]))
	}
	return total
}
