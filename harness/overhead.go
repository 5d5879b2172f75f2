package harness

// overWindow is how many of the last measurements of a kind a model of
// seconds takes their overhead from: when processes share a core, the
// overhead changes from the first size to the next (connections made,
// caches warm) more than the timed work does.
const overWindow = 64

// A window holds the last overWindow values added to it.
type window struct {
	v [overWindow]float64
	n int // values ever added
}

func (w *window) add(x float64) {
	w.v[w.n%overWindow] = x
	w.n++
}

// sum is the sum and the count of the values the window holds.
func (w *window) sum() (float64, int) {
	m := min(w.n, overWindow)
	s := 0.0
	for _, x := range w.v[:m] {
		s += x
	}
	return s, m
}

// overheads is what a progress's measurements took beside their timed
// work and the work done once, per kind of measurement (b_eff's methods:
// on 256 processes on 2 cores an alltoallv's cost beside its loops was 6
// times a ring's sendrecv's): the last overWindow of each kind, those
// done since Warm apart from those before.
type overheads struct {
	now, before []window // before: the windows when Warm came
	warm        bool
	last        float64 // the time beside the timed work at the last measurement
}

// add takes the time beside the timed work and the work done once, all
// measurements so far, when one of kind was done.
func (o *overheads) add(kind int, beside float64) {
	for len(o.now) <= kind {
		o.now = append(o.now, window{})
	}
	o.now[kind].add(beside - o.last)
	o.last = beside
}

// warmUp starts new windows: the measurements so far paid what comes once.
func (o *overheads) warmUp() {
	if !o.warm {
		o.before, o.now, o.warm = o.now, nil, true
	}
}

// of is the overhead of a measurement of kind, seconds: the mean of its
// window since Warm; without one, of its window before; of a kind not
// measured yet, the mean of all measurements' windows.
func (o *overheads) of(kind int) float64 {
	for _, ws := range [][]window{o.now, o.before} {
		if kind < len(ws) {
			if s, n := ws[kind].sum(); n > 0 {
				return max(0, s/float64(n))
			}
		}
	}
	for _, ws := range [][]window{o.now, o.before} {
		total, count := 0.0, 0
		for i := range ws {
			s, n := ws[i].sum()
			total, count = total+s, count+n
		}
		if count > 0 {
			return max(0, total/float64(count))
		}
	}
	return 0
}

// cold says whether a kind measured before Warm has not been since (or
// Warm has not come): its overhead is still the first measurements'.
func (o *overheads) cold() bool {
	if !o.warm {
		return true
	}
	for k := range o.before {
		if o.before[k].n > 0 && (k >= len(o.now) || o.now[k].n == 0) {
			return true
		}
	}
	return false
}
