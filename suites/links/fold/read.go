package fold

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/suites/links"
)

// Config is the configuration of a links run.
type Config struct {
	results.Common
	Level       string
	Members     int
	Meas        links.Settings
	Rounds      int
	PlanSeconds float64
	Matrix      string
}

// NodePairs is the node pairs of the multi-pair measurements.
func (c *Config) NodePairs() int { return c.Members / 2 }

// parseConfig reads the configuration lines of a run; it refuses what
// contradicts itself or the job.
func parseConfig(c results.Config) (*Config, error) {
	r := results.ConfigReader{Config: c, Suite: links.ID.Name}
	cfg := &Config{}
	if err := cfg.Read(r); err != nil {
		return nil, err
	}
	var err error
	if cfg.Level, err = oneOf(r, links.KeyLevel, links.LevelNodes, links.LevelProcs); err != nil {
		return nil, err
	}
	if cfg.Matrix, err = oneOf(r, links.KeyMatrix, links.MatrixFull, links.MatrixMembers); err != nil {
		return nil, err
	}
	pairs, err := oneOf(r, links.KeyPairs, links.PairsAtOnce, links.PairsSerial)
	if err != nil {
		return nil, err
	}
	cfg.Meas.Serial = pairs == links.PairsSerial
	ks, err := r.Need(links.KeyMultiK)
	if err != nil {
		return nil, err
	}
	if cfg.Meas.MultiKs, err = links.ParseKs(ks, cfg.N); err != nil {
		return nil, err
	}
	ints := []struct {
		key string
		to  *int
	}{{links.KeyMembers, &cfg.Members}, {links.KeyLatReps, &cfg.Meas.LatReps}, {links.KeyReps, &cfg.Meas.BwReps}, {links.KeyRounds, &cfg.Rounds}}
	for _, x := range ints {
		n, err := r.PosInt(x.key)
		if err != nil {
			return nil, err
		}
		if n > 1<<30 {
			return nil, fmt.Errorf("%s: %d: too large", x.key, n)
		}
		*x.to = int(n)
	}
	if cfg.Meas.BwLen, err = r.PosInt(links.KeyLen); err != nil {
		return nil, err
	}
	if cfg.Meas.Cap, err = positive(r, links.KeyCap); err != nil {
		return nil, err
	}
	if cfg.PlanSeconds, err = positive(r, links.KeyPlan); err != nil {
		return nil, err
	}
	return cfg, cfg.check()
}

// check refuses a configuration that contradicts itself or the job.
func (cfg *Config) check() error {
	switch {
	case cfg.Members < 2 || cfg.Members > cfg.N:
		return fmt.Errorf("%s: %d members of %d processes", links.KeyMembers, cfg.Members, cfg.N)
	case cfg.Rounds != links.Rounds(cfg.Members):
		return fmt.Errorf("%s: %d rounds for %d members (a round robin has %d)", links.KeyRounds, cfg.Rounds, cfg.Members, links.Rounds(cfg.Members))
	case cfg.Level == links.LevelProcs && cfg.Members != cfg.N:
		return fmt.Errorf("%s: %d members, but every one of the %d processes is one", links.KeyMembers, cfg.Members, cfg.N)
	}
	if err := cfg.Meas.Check(); err != nil {
		return err
	}
	// the plan the run announced is the plan of its settings
	if want := math.Ceil(links.NewPlan(cfg.Members, cfg.Meas).Seconds); cfg.PlanSeconds != want {
		return fmt.Errorf("%s: %g s, but the run's settings plan %g s", links.KeyPlan, cfg.PlanSeconds, want)
	}
	return nil
}

func oneOf(r results.ConfigReader, key string, values ...string) (string, error) {
	v, err := r.Need(key)
	if err != nil {
		return "", err
	}
	for _, w := range values {
		if v == w {
			return v, nil
		}
	}
	return "", fmt.Errorf("%s: %q: want %s", key, v, strings.Join(values, " or "))
}

func positive(r results.ConfigReader, key string) (float64, error) {
	v, err := r.Need(key)
	if err != nil {
		return 0, err
	}
	x, err := strconv.ParseFloat(v, 64)
	if err != nil || !(x > 0) || math.IsInf(x, 0) {
		return 0, fmt.Errorf("%s: %q: want a positive number", key, v)
	}
	return x, nil
}

// A Measurement is a line: a pair's figures (its Lat, Both, Fw, Bk, and
// Bw the lesser way), or a member's summary.
type Measurement struct {
	IsMember bool
	Again    bool // a pair's second measurement (a suspect's)
	// K is a multi-pair line's processes per node (0: not one); its Fw
	// and Both are the node pair's aggregate MB/s
	K              int
	Rate, BothRate float64
	A, B           int    // a pair's members, A < B
	Member         int    // a member's number
	Host           string // its host
	Switch         string // its switch, "" when unknown
	Fw, Bk         float64
	links.MemberSummary
}

// parseLine reads a line: its name and its measurement.
func parseLine(l *results.Line) (string, *Measurement, error) {
	if n := len(l.Parts); (n == 2 || n == 3 && l.Parts[1].Key == "switch") && l.Parts[0].Key == "host" && l.Parts[n-1].Key == "member" {
		return parseMember(l)
	}
	if len(l.Parts) == 3 && l.Parts[0].Key == "k" {
		return parseMulti(l)
	}
	parts, again := l.Parts, false
	if len(parts) == 3 && parts[0].Key == "pass" && parts[0].Value == "2" {
		parts, again = parts[1:], true
	}
	a, b, err := links.ParsePair(parts)
	if err != nil {
		return "", nil, err
	}
	m := &Measurement{A: a, B: b, Again: again}
	name := links.PairName(a, b)
	if again {
		name = links.RecheckName(a, b)
	}
	for _, x := range []struct {
		unit string
		to   *float64
	}{{links.MetricUs, &m.Lat}, {links.MetricMBps, &m.Fw}, {links.MetricBackMBps, &m.Bk}, {links.MetricBothMBps, &m.Both}} {
		if *x.to, err = metric(l, x.unit); err != nil {
			return name, nil, err
		}
	}
	m.Bw = min(m.Fw, m.Bk)
	return name, m, nil
}

// parseMulti reads k=<k>/a=<a>/b=<b>.
func parseMulti(l *results.Line) (string, *Measurement, error) {
	k, a, b, err := links.ParseMulti(l.Parts)
	if err != nil {
		return "", nil, err
	}
	m := &Measurement{K: k, A: a, B: b}
	name := links.MultiName(k, a, b)
	for _, x := range []struct {
		unit string
		to   *float64
	}{{links.MetricMBps, &m.Fw}, {links.MetricBothMBps, &m.Both}, {links.MetricRate, &m.Rate}, {links.MetricBothRate, &m.BothRate}} {
		if *x.to, err = metric(l, x.unit); err != nil {
			return name, nil, err
		}
	}
	return name, m, nil
}

// parseMember reads host=<h>[/switch=<sw>]/member=<i>.
func parseMember(l *results.Line) (string, *Measurement, error) {
	last := l.Parts[len(l.Parts)-1].Value
	i, err := strconv.Atoi(last)
	if err != nil || i < 0 {
		return "", nil, fmt.Errorf("member=%s: not a member's number", last)
	}
	m := &Measurement{IsMember: true, Member: i, Host: l.Parts[0].Value}
	if len(l.Parts) == 3 {
		if m.Switch = l.Parts[1].Value; m.Switch == "" {
			return "", nil, fmt.Errorf("switch=: an empty switch (a member without one has no switch= part)")
		}
	}
	name := links.MemberName(m.Host, m.Switch, i)
	var to1, to2, n float64
	for _, x := range []struct {
		unit string
		to   *float64
	}{{links.MetricUs, &m.Lat}, {links.MetricMBps, &m.Bw}, {links.MetricBothMBps, &m.Both}, {links.MetricWorstUs, &m.WorstLat},
		{links.MetricMinMBps, &m.MinBw}, {links.MetricWorstLatTo, &to1}, {links.MetricMinBwTo, &to2}, {links.MetricMADUs, &m.MADLat},
		{links.MetricMADMBps, &m.MADBw}, {links.MetricLinks, &n}} {
		if *x.to, err = metric(l, x.unit); err != nil {
			return name, nil, err
		}
	}
	for _, x := range []float64{to1, to2, n} {
		if x < -1 || x > 1<<30 || x != math.Trunc(x) {
			return name, nil, fmt.Errorf("%s: %v is not a member's number", name, x)
		}
	}
	m.WorstLatTo, m.MinBwTo, m.Links = int(to1), int(to2), int(n)
	return name, m, nil
}

// metric is the line's value of unit: a finite number (NaN: the pair
// measured nothing; it is left out of the verdicts).
func metric(l *results.Line, unit string) (float64, error) {
	v, ok := l.Metrics[unit]
	if !ok {
		return 0, fmt.Errorf("missing metric %s", unit)
	}
	if math.IsInf(v, 0) || v < 0 || v > results.MaxFigure {
		return 0, fmt.Errorf("%s: %v is not a measurement", unit, v)
	}
	return v, nil
}
