package links

// The round robin (the circle method): n members meet every other member
// once, in rounds of disjoint pairs. Member n−1 (of an even n) stays put;
// the others turn around it. An odd n plays with a ghost, n, and whoever
// meets the ghost sits the round out. Each member works out its own
// partner in O(1): no member keeps a table of the rounds.

// Rounds is the number of rounds in which n members meet every other
// once: n−1 for an even n, n for an odd one (0 for fewer than 2).
func Rounds(n int) int {
	if n < 2 {
		return 0
	}
	if n%2 == 0 {
		return n - 1
	}
	return n
}

// Partner is member i's partner in round r of a round robin of n members,
// or −1 when i sits the round out (n odd) or i, r are out of range.
func Partner(n, r, i int) int {
	if n < 2 || i < 0 || i >= n || r < 0 || r >= Rounds(n) {
		return -1
	}
	m := n
	if n%2 == 1 {
		m = n + 1 // the ghost is member n
	}
	var j int
	switch {
	case i == m-1:
		j = r
	default:
		j = ((2*r-i)%(m-1) + (m - 1)) % (m - 1)
		if j == i {
			j = m - 1
		}
	}
	if j >= n {
		return -1
	}
	return j
}

// Lower says whether i is the lower member of its pair with j: the one
// that starts every exchange of the pair (the ping of the ping-pong, the
// first direction of a one-way bandwidth).
func Lower(i, j int) bool { return i < j }
