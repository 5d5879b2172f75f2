package fold

import "github.com/beff-suite/beff/internal/results"

// JSONLinks is a links run's detail in beff fold -json (docs/fold-json.md).
type JSONLinks struct {
	Level    string        `json:"level"`
	Members  int           `json:"members"`
	Matrix   string        `json:"matrix"`
	Findings []JSONFinding `json:"findings"`
	Nodes    []JSONMember  `json:"member_links"`
	Pairs    []JSONPair    `json:"pairs"`
	Again    []JSONPair    `json:"pairs_again"`
	Multi    []JSONMulti   `json:"multi"`
}

// JSONMulti is the multi-pair figure at one k.
type JSONMulti struct {
	K            int           `json:"k"`
	NodePairs    int           `json:"node_pairs"`
	MBps         results.Float `json:"mbps"`
	BothMBps     results.Float `json:"both_mbps"`
	MsgRate      results.Float `json:"msg_rate"`
	BothMsgRate  results.Float `json:"both_msg_rate"`
	LeastMBps    results.Float `json:"least_mbps"`
	LeastMembers [2]int        `json:"least_members"`
}

// JSONFinding is a verdict.
type JSONFinding struct {
	Figure  string        `json:"figure"`
	Member  int           `json:"member"`
	Other   int           `json:"other"`
	Value   results.Float `json:"value"`
	Typical results.Float `json:"typical"`
	Line    string        `json:"line"`
}

// JSONMember is a member's summary.
type JSONMember struct {
	Member    int           `json:"member"`
	Host      string        `json:"host"`
	Switch    string        `json:"switch"`
	LatUs     results.Float `json:"lat_us"`
	MBps      results.Float `json:"mbps"`
	BothMBps  results.Float `json:"both_mbps"`
	WorstUs   results.Float `json:"worst_us"`
	WorstUsTo int           `json:"worst_us_to"`
	MinMBps   results.Float `json:"min_mbps"`
	MinMBpsTo int           `json:"min_mbps_to"`
	Links     int           `json:"links"`
}

// JSONPair is a pair of a full matrix.
type JSONPair struct {
	A        int           `json:"a"`
	B        int           `json:"b"`
	LatUs    results.Float `json:"lat_us"`
	MBps     results.Float `json:"mbps"`
	BackMBps results.Float `json:"back_mbps"`
	BothMBps results.Float `json:"both_mbps"`
}

// JSONDetail is the run's JSONLinks.
func (p *Folded) JSONDetail() any {
	d := JSONLinks{Level: p.Config.Level, Members: p.Config.Members, Matrix: p.Config.Matrix,
		Findings: []JSONFinding{}, Nodes: []JSONMember{}, Pairs: []JSONPair{}, Again: []JSONPair{}, Multi: []JSONMulti{}}
	for _, f := range p.Findings {
		d.Findings = append(d.Findings, JSONFinding{f.Figure, f.Member, f.Other, results.Float(f.Value), results.Float(f.Typical), f.Line})
	}
	for _, m := range p.Members {
		d.Nodes = append(d.Nodes, JSONMember{m.Member, m.Host, m.Switch, results.Float(m.Lat), results.Float(m.Bw), results.Float(m.Both),
			results.Float(m.WorstLat), m.WorstLatTo, results.Float(m.MinBw), m.MinBwTo, m.Links})
	}
	for _, m := range p.Pairs {
		d.Pairs = append(d.Pairs, jsonPair(m))
	}
	for _, m := range p.Again {
		d.Again = append(d.Again, jsonPair(m))
	}
	for _, r := range p.Multi {
		d.Multi = append(d.Multi, JSONMulti{r.K, r.Pairs, results.Float(r.MBps), results.Float(r.Both), results.Float(r.Rate), results.Float(r.BothRate),
			results.Float(r.MinMBps), [2]int{r.MinA, r.MinB}})
	}
	return d
}

func jsonPair(m *Measurement) JSONPair {
	return JSONPair{m.A, m.B, results.Float(m.Lat), results.Float(m.Fw), results.Float(m.Bk), results.Float(m.Both)}
}
