package links

import "math"

// An Own is one of a member's links: the member it leads to and its
// values (latency µs; MB/s from the lower member, back, both ways).
type Own struct {
	To                int
	Lat, Fw, Bk, Both float64
}

// A MemberSummary is a member's links in short, as its line carries them:
// the medians (Bw of the lesser way of each link), the slowest link by
// latency and by bandwidth and whom it leads to (−1: none), the median
// absolute deviations the verdicts hold a link against, and the links
// counted. A link that measured nothing (NaN) is left out.
type MemberSummary struct {
	Lat, Bw, Both       float64
	WorstLat, MinBw     float64
	WorstLatTo, MinBwTo int
	MADLat, MADBw       float64
	Links               int
}

// Summarize is the summary of a member's links: what the driver writes
// on the member's line, and what the fold holds that line to where the
// run has every pair.
func Summarize(own []Own) MemberSummary {
	s := MemberSummary{WorstLatTo: -1, MinBwTo: -1, Links: len(own)}
	var lat, bw, both []float64
	for _, l := range own {
		w := math.Min(l.Fw, l.Bk)
		if !math.IsNaN(l.Lat) {
			lat = append(lat, l.Lat)
			if s.WorstLatTo < 0 || l.Lat > s.WorstLat {
				s.WorstLat, s.WorstLatTo = l.Lat, l.To
			}
		}
		if !math.IsNaN(w) {
			bw = append(bw, w)
			if s.MinBwTo < 0 || w < s.MinBw {
				s.MinBw, s.MinBwTo = w, l.To
			}
		}
		if !math.IsNaN(l.Both) {
			both = append(both, l.Both)
		}
	}
	s.Lat, s.MADLat = MedianMAD(lat)
	s.Bw, s.MADBw = MedianMAD(bw)
	s.Both, _ = MedianMAD(both)
	return s
}
