package beff

// pairStepsOf builds ping-pong pairs: partner(r) is r's partner (None when
// it idles); the lower of each pair sends then receives, the other
// receives then sends.
func pairStepsOf(partner func(r int) int) func(int) []Step {
	return func(r int) []Step {
		q := partner(r)
		switch {
		case q == None:
			return nil
		case r < q:
			return []Step{{Dest: q, Src: None}, {Dest: None, Src: q}}
		}
		return []Step{{Dest: None, Src: q}, {Dest: q, Src: None}}
	}
}

// BestBisectPairs are the pairs (2k, 2k+1); with odd n the last process idles.
func BestBisectPairs(n int) [][2]int {
	var p [][2]int
	for k := 0; 2*k+1 < n; k++ {
		p = append(p, [2]int{2 * k, 2*k + 1})
	}
	return p
}

// WorstBisectPairs are the pairs (k, E-1-k) with E = n rounded down to even.
func WorstBisectPairs(n int) [][2]int {
	e := n &^ 1
	var p [][2]int
	for k := 0; k < e/2; k++ {
		p = append(p, [2]int{k, e - 1 - k})
	}
	return p
}
