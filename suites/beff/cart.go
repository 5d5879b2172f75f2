package beff

// DimsCreate is a pure-Go MPI_Dims_create for a dims array of zeros: the
// most balanced factorisation of n into nd factors (smallest difference
// between the largest and the smallest factor), in non-increasing order; of
// equally balanced ones (the first such n is 360 in 3-D: 10·6·6 and 9·8·5)
// it takes the one with the largest first factor. The harness uses the MPI
// library's own answer, which may be less balanced: Open MPI's greedy
// algorithm gives 12×6 for 72 and 18×10 for 180 where this gives 9×8 and
// 15×12. Both agree on whether the last dimension is 1, so CartCommSize
// does not depend on the choice.
func DimsCreate(n, nd int) []int {
	best := []int(nil)
	var rec func(rem, k, maxf int, cur []int)
	rec = func(rem, k, maxf int, cur []int) {
		if k == nd-1 {
			if rem > maxf {
				return
			}
			c := append(append([]int(nil), cur...), rem)
			if best == nil || c[0]-c[nd-1] < best[0]-best[nd-1] {
				best = c
			}
			return
		}
		for f := maxf; f >= 1; f-- {
			if rem%f == 0 {
				rec(rem/f, k+1, f, append(cur, f))
			}
		}
	}
	rec(n, 0, n, nil)
	return best
}

// CartCommSize returns the size c of the communicator of the nd-dimensional
// Cartesian patterns on n processes: the largest c ≤ n for which dims(c) has
// a last dimension > 1, or c < 4, or c < 8 and even.
func CartCommSize(n, nd int, dims func(c, nd int) []int) int {
	for c := n; c > 1; c-- {
		d := dims(c, nd)
		if d[nd-1] > 1 || c < 4 || (c < 8 && c%2 == 0) {
			return c
		}
	}
	return 1
}

// CartShift returns the ranks at displacement -1 (src) and +1 (dest) of rank
// along dimension dir in a row-major grid, None past a non-periodic edge.
func CartShift(dims []int, periodic bool, rank, dir int) (src, dest int) {
	stride := 1
	for _, d := range dims[dir+1:] {
		stride *= d
	}
	size := dims[dir]
	c := rank / stride % size
	at := func(delta int) int {
		k := c + delta
		if k < 0 || k >= size {
			if !periodic {
				return None
			}
			k = (k + size) % size
		}
		return rank + (k-c)*stride
	}
	return at(-1), at(+1)
}

// ShiftFunc returns the (src, dest) neighbours of a rank along a dimension;
// the harness passes MPI_Cart_shift, tests pass CartShift.
type ShiftFunc func(rank, dir int) (src, dest int)

// cartStepsOf: per listed direction, ping to the +1 neighbour (receive
// from -1), then pong back; the pong is dropped where both neighbours are
// one process.
func cartStepsOf(dirs []int, shift ShiftFunc) func(int) []Step {
	return func(r int) []Step {
		st := make([]Step, 0, 2*len(dirs))
		for _, d := range dirs {
			src, dest := shift(r, d)
			st = append(st, Step{Dest: dest, Src: src})
			if src != dest {
				st = append(st, Step{Dest: src, Src: dest})
			}
		}
		return st
	}
}

// cartCounts are the messages and participants of a Cartesian pattern
// along dirs of a grid of c processes (cartStepsOf), in O(1): every
// process takes part; along a dimension of d processes, periodic, each
// sends to both neighbours (to one where they are one process, d ≤ 2),
// not periodic, to both but past an edge (2(d−1) messages per line of d).
func cartCounts(c int, dims []int, periodic bool, dirs []int) (messages, participants int) {
	if c == 0 || len(dirs) == 0 {
		return 0, 0
	}
	for _, dir := range dirs {
		d := dims[dir]
		switch {
		case periodic && d <= 2:
			messages += c
		case periodic:
			messages += 2 * c
		default:
			messages += c / d * 2 * (d - 1)
		}
	}
	return messages, c
}

// Cart describes the Cartesian communicator of one dimensionality.
type Cart struct {
	Size  int   // communicator size c
	Dims  []int // from MPI_Dims_create(c, nd)
	Shift ShiftFunc
	// AShift is the shift of the non-periodic topology.
	AShift ShiftFunc
}

// PureCart returns the Cartesian layout computed in Go.
func PureCart(n, nd int) Cart {
	c := CartCommSize(n, nd, DimsCreate)
	dims := DimsCreate(c, nd)
	return Cart{Size: c, Dims: dims,
		Shift:  func(r, d int) (int, int) { return CartShift(dims, true, r, d) },
		AShift: func(r, d int) (int, int) { return CartShift(dims, false, r, d) },
	}
}
