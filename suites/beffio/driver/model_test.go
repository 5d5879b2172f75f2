package driver

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/harness"
	"github.com/beff-suite/beff/suites/beffio"
)

// modelRun is rank 0 of a run of one partition of n processes, T seconds
// scheduled, the table of b_eff_io's patterns, with its progress.
func modelRun(t *testing.T, n int, T float64, mode beffio.RewriteMode) *run {
	t.Helper()
	s := harness.NewFakeSession(0, 1, harness.Job{}, nil, func(int, string) {})
	r := &run{f: td.f, s: s, st: Settings{T: T, Rewrite: mode, MPART: 2 << 20, CacheMiB: 0, DropCaches: "off"}}
	r.table = beffio.Table(r.st.MPART)
	r.sumU = beffio.ScheduleSumU(r.table, mode)
	r.parts = []*partition{{n: n, counts: map[int]int64{}}}
	r.startProgress()
	return r
}

// TestTimeModelBeforeAnything: before any pattern ran, the model predicts
// the scheduled time of the time-driven writes, the size-driven writes as
// type 2's share, and each rewrite and read from its write: a third and
// a tenth of it while what was written fits the file-system cache (nothing
// yet).
func TestTimeModelBeforeAnything(t *testing.T) {
	r := modelRun(t, 4, 60, beffio.RewriteAll)
	writes := 0.0
	p := r.parts[0]
	for _, pat := range r.scheduled(beffio.Write) {
		writes += r.predict(beffio.Write, p, pat, r.st.T)
	}
	assert.Positive(t, writes)
	left, n := r.timeLeft()
	assert.InDelta(t, writes*(1+1.0/3+1.0/10), left, 1e-9)
	require.Len(t, n, 1, "a kind per partition")
	assert.Positive(t, n[0])
	for _, pat := range r.scheduled(beffio.Write) {
		if pat.Type <= beffio.Separated {
			assert.InDelta(t, r.share(pat, r.st.T), r.predict(beffio.Write, p, pat, r.st.T), 1e-12, "pattern %d: its share of T", pat.No)
		}
	}
	scatter := modelRun(t, 4, 60, beffio.RewriteScatter)
	assert.Less(t, len(scatter.scheduled(beffio.Rewrite)), len(r.scheduled(beffio.Rewrite)), "only the scatter type is rewritten")
	assert.Len(t, r.scheduled(beffio.Read), len(r.table))
}

// TestTimeModelLearns: once more was written than the cache holds, a
// rewrite is predicted as long as its write took; a rewrite that took
// half its write's time makes the later rewrites predicted at half
// theirs; the model's position moves on with every pattern.
func TestTimeModelLearns(t *testing.T) {
	r := modelRun(t, 2, 60, beffio.RewriteAll)
	r.st.CacheMiB = 1
	p := r.parts[0]
	writes := r.scheduled(beffio.Write)
	for i, pat := range writes {
		r.tookPattern(beffio.Write, p, pat, 1<<20, 0.5+float64(i), r.st.T)
	}
	assert.Equal(t, position{0, 0, len(writes)}, r.model.at)
	assert.Equal(t, int64(len(writes))<<20, r.model.written[p.n])
	rw := r.scheduled(beffio.Rewrite)
	require.Len(t, rw, len(writes))
	assert.InDelta(t, 0.5, r.predict(beffio.Rewrite, p, rw[0], r.st.T), 1e-12, "as long as its write")
	r.tookPattern(beffio.Rewrite, p, rw[0], 1<<20, 0.25, r.st.T)
	assert.InDelta(t, 1.5/2, r.predict(beffio.Rewrite, p, rw[1], r.st.T), 1e-12, "rewrites so far took half their writes' time")
	assert.InDelta(t, 1.5, r.predict(beffio.Read, p, rw[1], r.st.T), 1e-12, "no read ran yet")
}

// TestTimeModelCache: before a rewrite or read ran, data that fit the
// file-system cache are predicted at a third (rewrite) and a tenth (read)
// of the write's time; a read that drops the cache first is not.
func TestTimeModelCache(t *testing.T) {
	r := modelRun(t, 2, 60, beffio.RewriteAll)
	r.st.CacheMiB = 1 << 20
	p := r.parts[0]
	pat := r.scheduled(beffio.Read)[0]
	w := r.predict(beffio.Write, p, pat, r.st.T)
	assert.InDelta(t, w/3, r.predict(beffio.Rewrite, p, pat, r.st.T), 1e-12)
	assert.InDelta(t, w/10, r.predict(beffio.Read, p, pat, r.st.T), 1e-12)
	r.st.DropCaches = "drop_caches"
	assert.InDelta(t, w, r.predict(beffio.Read, p, pat, r.st.T), 1e-12, "the read misses the cache")
}

// TestRatioAndPosition: a ratio is its default until both sides are
// known; positions order by access, partition, pattern.
func TestRatioAndPosition(t *testing.T) {
	var q ratio
	assert.Equal(t, 7.0, q.or(7))
	q = q.add(2, 4).add(1, 2)
	assert.Equal(t, 0.5, q.or(7))
	assert.Equal(t, 2.0, q.rate())
	assert.True(t, position{0, 1, 5}.before(position{1, 0, 0}))
	assert.True(t, position{1, 0, 5}.before(position{1, 1, 0}))
	assert.True(t, position{1, 1, 2}.before(position{1, 1, 3}))
	assert.False(t, position{1, 1, 3}.before(position{1, 1, 3}))
}

// TestTimeModelOverrun: where the time-driven writes outlast their
// shares of T (one call longer than the share: processes sharing a
// core), the later ones are predicted as much longer, on the partition
// and on the next one until it wrote its own; never shorter than their
// shares.
func TestTimeModelOverrun(t *testing.T) {
	r := modelRun(t, 4, 6, beffio.RewriteAll)
	r.parts = append(r.parts, &partition{n: 8, counts: map[int]int64{}})
	p, q := r.parts[0], r.parts[1]
	var timed []beffio.AccessPattern
	for _, pat := range r.scheduled(beffio.Write) {
		if pat.Type <= beffio.Separated && r.share(pat, r.st.T) > 0 {
			timed = append(timed, pat)
		}
	}
	require.Greater(t, len(timed), 2)
	r.tookPattern(beffio.Write, p, timed[0], 1<<20, 3*r.share(timed[0], r.st.T), r.st.T)
	assert.InDelta(t, 3*r.share(timed[1], r.st.T), r.predict(beffio.Write, p, timed[1], r.st.T), 1e-12)
	assert.InDelta(t, 3*r.share(timed[1], r.st.T), r.predict(beffio.Write, q, timed[1], r.st.T), 1e-12, "the next partition, before it wrote")
	r.tookPattern(beffio.Write, q, timed[0], 1<<20, r.share(timed[0], r.st.T)/2, r.st.T)
	assert.InDelta(t, r.share(timed[1], r.st.T), r.predict(beffio.Write, q, timed[1], r.st.T), 1e-12, "its own, and no shorter than the share")
}

// TestSharedModel: where processes share CPUs, once every partition
// wrote, a rewrite is predicted at 0.6 of its write's wall time on each
// partition and a read at 0.8 of its rewrite's, until partitions show
// otherwise (the prior counting as much as the first partition); of
// the partition under way only the part its patterns left took in the
// access before; no time beside the wall times is added.
func TestSharedModel(t *testing.T) {
	r := modelRun(t, 4, 60, beffio.RewriteAll)
	r.s.Job.Share = 4
	r.parts = append(r.parts, &partition{n: 8, counts: map[int]int64{}})
	r.model.walls[[2]int{0, 0}] = 2
	r.model.walls[[2]int{0, 1}] = 10
	r.model.at = position{1, 0, 0}
	left, kinds := r.timeLeft()
	assert.InDelta(t, 0.6*(2+10)*(1+0.8), left, 1e-12)
	assert.Nil(t, kinds)

	r.model.walls[[2]int{1, 0}] = 1.5
	r.model.at = position{1, 1, 0}
	q := (0.6*2 + 1.5) / (2 + 2)
	left, _ = r.timeLeft()
	assert.InDelta(t, q*10+0.8*1.5+0.8*q*10, left, 1e-12)

	rw := r.scheduled(beffio.Rewrite)
	for _, pat := range r.scheduled(beffio.Write) {
		r.model.took[[3]int{0, 8, pat.No}] = 1
	}
	r.model.at = position{1, 1, len(rw) / 2}
	left, _ = r.timeLeft()
	part := float64(len(rw)-len(rw)/2) / float64(len(rw))
	assert.InDelta(t, q*10*part+0.8*1.5+0.8*q*10, left, 1e-12, "half the partition's rewrite left")

	scatter := modelRun(t, 4, 60, beffio.RewriteScatter)
	assert.Equal(t, 0, scatter.prevAccess(2), "a read follows the write where the rewrite measured only the scatter type")
	assert.Equal(t, 1, r.prevAccess(2))
	assert.InDelta(t, 0.48, sharedPrior(beffio.Write, beffio.Read), 1e-12)
}
