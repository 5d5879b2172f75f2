package fold

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/suites/beffio"
)

// A Measurement is one line of BenchmarkBeffIO. Which metrics a line has
// depends on its kind (see parseMetrics); absent counts are 0.
type Measurement struct {
	beffio.Key
	MBps    float64 // MB/s: bandwidth, 1e6 B/s
	MB      float64 // MB: data of all processes, 1e6 bytes
	Seconds float64 // s: time (pattern, open to close, or the phase)
	Reps    int64   // reps: calls per process (pattern lines)
	Errors  int64   // errors: validation errors found (read pattern lines)
	// Decisions and StopMs are the stop decisions of the time-driven
	// initial write and the time they took (HasStop: reported).
	Decisions int64
	StopMs    float64
	HasStop   bool
	// Capped is set when the data budget (-beffio.maxdata) stopped a
	// time-driven write pattern before its scheduled time.
	Capped bool
	// SharedFP is 1 if the shared file pointer was used, 0 if explicit
	// offsets replaced it, -1 if the line does not say (not type shared).
	SharedFP int
	// OpenS and CloseS are, on total lines, the open and the close within
	// the type's time; DeleteS the removal of the file timed after a
	// read's close (paper's rules). -1 where the line does not say.
	OpenS, CloseS, DeleteS float64
	Line                   int // line in the file
	// Metrics holds every metric of the line, keyed by the unit as written
	// (MB/s, MB, s, reps, ns/op, …), with the value as written.
	Metrics map[string]float64
}

// Name is the benchmark name of m without the "Benchmark" prefix.
func (m *Measurement) Name() string { return beffio.Bench + "/" + m.Key.String() }

// Config is the configuration of a b_eff_io run, from its benchfmt
// configuration lines.
type Config struct {
	results.Common
	T          float64            // beffio-t-s: scheduled time of the whole run, seconds
	Partitions []int              // beffio-partitions: ascending
	MPART      int64              // beffio-mpart: the largest chunk, bytes
	Rewrite    beffio.RewriteMode // beffio-rewrite: which types are rewritten
	Rules      beffio.Rules       // beffio-rules: paper (also when absent) or reference

	// Optional lines; 0 or empty when absent.
	MemMiB   int64 // beffio-mem-per-proc-mib: memory per process M, MiB
	TotalMiB int64 // beffio-totalmem-mib: total memory of the system MT, MiB
	// CacheMiB is the file-system cache estimate (beffio-cache-mib), MiB;
	// negative when not given.
	CacheMiB   float64
	Dir        string // beffio-dir: the directory of the files
	FS         string // beffio-fs: its file system (type, source, servers), "" when not written
	Stop       string // beffio-stop: geometric or barrier
	DropCaches string // beffio-dropcaches: off, drop_caches or fadvise
}

// TPartition is the scheduled time of one partition, T / partitions.
func (c *Config) TPartition() float64 { return c.T / float64(len(c.Partitions)) }

// A Run is a b_eff_io run: the run as read, with its configuration and
// lines as b_eff_io reads them.
type Run struct {
	*results.Run
	Config *Config
	// Measurements in file order. Each key occurs at most once.
	Measurements []*Measurement
	byKey        map[beffio.Key]*Measurement
}

// runOf is the b_eff_io view of a run that the suite read.
func runOf(r *results.Run) *Run {
	run := &Run{Run: r, Config: reading{}.Config(r), byKey: map[beffio.Key]*Measurement{}}
	for _, l := range r.Lines {
		m := reading{}.Value(l)
		run.Measurements = append(run.Measurements, m)
		run.byKey[m.Key] = m
	}
	return run
}

// Lookup returns the line of key k, or nil if the run has none.
func (r *Run) Lookup(k beffio.Key) *Measurement { return r.byKey[k] }

const nameWant = "not a b_eff_io measurement name (want n=<n>/acc=<access>/type=<type>/pat=<No>/l=<l>/L=<L>, …/pat=total or …/type=all/pat=phase)"

// parseName parses n=<n>/acc=<access>/type=<type>/pat=….
func parseName(parts []results.Part) (beffio.Key, error) {
	var k beffio.Key
	bad := fmt.Errorf(nameWant)
	keys := make([]string, len(parts))
	vals := make([]string, len(parts))
	for i, p := range parts {
		keys[i], vals[i] = p.Key, p.Value
	}
	if parts == nil || len(keys) < 4 || !slices.Equal(keys[:4], []string{"n", "acc", "type", "pat"}) {
		return k, bad
	}
	n, err := strconv.Atoi(vals[0])
	if err != nil || n <= 0 {
		return k, fmt.Errorf("partition n=%s is not a positive number of processes", vals[0])
	}
	k.N = n
	a, ok := beffio.ParseAccess(vals[1])
	if !ok {
		return k, fmt.Errorf("unknown access method %q", vals[1])
	}
	k.Access = a
	typ, pat := vals[2], vals[3]
	switch {
	case pat == "phase":
		if typ != "all" || len(keys) != 4 {
			return k, bad
		}
		k.Pat = beffio.PatPhase
		return k, nil
	case typ == "all":
		return k, bad
	}
	t, ok := beffio.ParseType(typ)
	if !ok {
		return k, fmt.Errorf("unknown pattern type %q", typ)
	}
	k.Type = t
	if pat == "total" {
		if len(keys) != 4 {
			return k, bad
		}
		k.Pat = beffio.PatTotal
		return k, nil
	}
	return parsePattern(k, pat, keys, vals)
}

// parsePattern parses the pattern part pat=<No>/l=<l>/L=<L> of a name.
func parsePattern(k beffio.Key, pat string, keys, vals []string) (beffio.Key, error) {
	no, err := strconv.Atoi(pat)
	if err != nil || no < 0 {
		return k, fmt.Errorf("pattern pat=%s is not a pattern number, total or phase", pat)
	}
	k.Pat = no
	if len(keys) != 6 || keys[4] != "l" || keys[5] != "L" {
		return k, fmt.Errorf(nameWant)
	}
	if vals[4] == "fill" && vals[5] == "fill" {
		k.Fill = true
		return k, nil
	}
	size := func(s string) (int64, error) {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil || v <= 0 {
			return 0, fmt.Errorf("chunk size %q is not a positive number of bytes or fill (both)", s)
		}
		return v, nil
	}
	if k.L, err = size(vals[4]); err != nil {
		return k, err
	}
	if k.Mem, err = size(vals[5]); err != nil {
		return k, err
	}
	return k, nil
}

// A metrics reads the metrics of a line: values finite and not negative,
// counts whole.
type metrics map[string]float64

// get sets *dst to the metric unit and reports whether the line has it; a
// required metric must be there.
func (ms metrics) get(unit string, dst *float64, required bool) (bool, error) {
	v, ok := ms[unit]
	if !ok {
		if required {
			return false, fmt.Errorf("missing metric %s", unit)
		}
		return false, nil
	}
	if !(v >= 0) || math.IsInf(v, 0) {
		return false, fmt.Errorf("%s = %v is not a finite number ≥ 0", unit, v)
	}
	*dst = v
	return true, nil
}

// count is get for a whole number.
func (ms metrics) count(unit string, dst *int64, required bool) (bool, error) {
	var v float64
	ok, err := ms.get(unit, &v, required)
	if err != nil || !ok {
		return ok, err
	}
	if v != math.Trunc(v) || v > math.MaxInt64/2 {
		return false, fmt.Errorf("%s = %v is not a whole number", unit, v)
	}
	*dst = int64(v)
	return true, nil
}

// parseMetrics extracts the metrics of a line with key k:
//   - pattern lines: MB/s, reps, MB, s; errors on reads; sharedfp on type
//     shared; decisions, stop-ms and capped optional;
//   - total lines: MB/s, MB, s; open-s, close-s and delete-s optional;
//   - phase lines: s.
//
// Values must be finite and not negative, counts whole, sharedfp 0 or 1,
// a bandwidth its MB over its s (within the printed digits). A bandwidth
// below results.RoundedMBps is taken as MB / s, as printed it has fewer
// than three significant digits.
func parseMetrics(l *results.Line, k beffio.Key) (*Measurement, error) {
	ms := metrics(l.Metrics)
	m := &Measurement{Key: k, SharedFP: -1, OpenS: -1, CloseS: -1, DeleteS: -1, Line: l.Line, Metrics: l.Metrics}
	if _, err := ms.get(beffio.MetricSeconds, &m.Seconds, true); err != nil || k.Pat == beffio.PatPhase {
		return m, err
	}
	if _, err := ms.get(beffio.MetricMBps, &m.MBps, true); err != nil {
		return nil, err
	}
	if _, err := ms.get(beffio.MetricMB, &m.MB, true); err != nil {
		return nil, err
	}
	if computed := m.MB / m.Seconds; m.Seconds > 0 && !(math.Abs(m.MBps-computed) <= 0.005+2e-3*computed) {
		return nil, fmt.Errorf("%v MB/s contradicts its %v MB in %v s (%.4g MB/s); not written by beff, or edited", m.MBps, m.MB, m.Seconds, computed)
	}
	m.MBps = results.PreciseMBps(m.MBps, m.MB/m.Seconds) // a time of 0 gives +Inf or NaN: the printed value stays
	if k.Pat == beffio.PatTotal {
		return m, m.readTimes(ms)
	}
	if _, err := ms.count(beffio.MetricReps, &m.Reps, true); err != nil {
		return nil, err
	}
	if _, err := ms.count(beffio.MetricErrors, &m.Errors, k.Access == beffio.Read); err != nil {
		return nil, err
	}
	return m, m.readWrite(ms)
}

// readTimes reads the optional times of a total line.
func (m *Measurement) readTimes(ms metrics) error {
	for _, t := range []struct {
		unit string
		dst  *float64
	}{{beffio.MetricOpenS, &m.OpenS}, {beffio.MetricCloseS, &m.CloseS}, {beffio.MetricDeleteS, &m.DeleteS}} {
		if _, err := ms.get(t.unit, t.dst, false); err != nil {
			return err
		}
	}
	return nil
}

// readWrite reads the metrics of the write patterns: the stop decisions,
// the cap of the data budget and the shared file pointer.
func (m *Measurement) readWrite(ms metrics) error {
	var err error
	if m.HasStop, err = ms.count(beffio.MetricDecisions, &m.Decisions, false); err != nil {
		return err
	}
	hasMs, err := ms.get(beffio.MetricStopMs, &m.StopMs, false)
	if err != nil {
		return err
	}
	m.HasStop = m.HasStop || hasMs
	var capped int64
	if _, err = ms.count(beffio.MetricCapped, &capped, false); err != nil {
		return err
	}
	m.Capped = capped > 0
	var fp int64
	ok, err := ms.count(beffio.MetricSharedFP, &fp, m.Type == beffio.Shared)
	if err != nil {
		return err
	}
	if ok {
		if fp > 1 {
			return fmt.Errorf("%s = %d is neither 0 nor 1", beffio.MetricSharedFP, fp)
		}
		m.SharedFP = int(fp)
	}
	return nil
}

// parseConfig reads the b_eff_io configuration of a run.
func parseConfig(cfg results.Config) (*Config, error) {
	c := &Config{CacheMiB: -1}
	r := results.ConfigReader{Config: cfg, Suite: "b_eff_io"}
	if err := c.ReadProcs(r); err != nil {
		return c, err
	}
	if err := c.ReadMode(r); err != nil {
		return c, err
	}
	v, err := r.Need(beffio.KeyT)
	if err != nil {
		return c, err
	}
	if c.T, err = strconv.ParseFloat(v, 64); err != nil || !(c.T > 0) || math.IsInf(c.T, 0) {
		return c, fmt.Errorf("%s: %q is not a positive number of seconds", beffio.KeyT, v)
	}
	for _, read := range []func(results.ConfigReader) error{c.readPartitions, c.readMPART, c.readRewrite, c.readOptional} {
		if err := read(r); err != nil {
			return c, err
		}
	}
	c.ReadInfo(r)
	return c, nil
}

// readPartitions reads beffio-partitions: increasing, at most N.
func (c *Config) readPartitions(r results.ConfigReader) error {
	parts, err := r.Increasing(beffio.KeyPartitions)
	if err != nil {
		return err
	}
	for _, p := range parts {
		if int(p) > c.N {
			return fmt.Errorf("%s: partition %d is larger than %s %d", beffio.KeyPartitions, p, results.KeyProcs, c.N)
		}
		c.Partitions = append(c.Partitions, int(p))
	}
	return nil
}

// readMPART reads beffio-mpart: a positive multiple of 8.
func (c *Config) readMPART(r results.ConfigReader) error {
	var err error
	if c.MPART, err = r.PosInt(beffio.KeyMPART); err != nil {
		return err
	}
	if c.MPART%8 != 0 {
		return fmt.Errorf("%s: %d bytes is not a multiple of 8", beffio.KeyMPART, c.MPART)
	}
	return nil
}

// readRewrite reads beffio-rewrite: all or scatter.
func (c *Config) readRewrite(r results.ConfigReader) error {
	v, err := r.Need(beffio.KeyRewrite)
	if err != nil {
		return err
	}
	c.Rewrite = beffio.RewriteMode(v)
	if c.Rewrite != beffio.RewriteAll && c.Rewrite != beffio.RewriteScatter {
		return fmt.Errorf("%s: unknown mode %q (want all or scatter)", beffio.KeyRewrite, v)
	}
	return nil
}

// readOptional reads the lines a run may lack.
func (c *Config) readOptional(r results.ConfigReader) error {
	var err error
	if c.MemMiB, err = r.OptPosInt(beffio.KeyMem); err != nil {
		return err
	}
	if c.TotalMiB, err = r.OptPosInt(beffio.KeyTotalMem); err != nil {
		return err
	}
	if v := r.Config[beffio.KeyCache]; v != "" {
		c.CacheMiB, err = strconv.ParseFloat(v, 64)
		if err != nil || !(c.CacheMiB >= 0) || math.IsInf(c.CacheMiB, 0) {
			return fmt.Errorf("%s: %q is not a number of MiB ≥ 0", beffio.KeyCache, v)
		}
	}
	c.Stop = r.Config[beffio.KeyStop]
	if c.Stop != "" && c.Stop != string(beffio.StopGeometric) && c.Stop != string(beffio.StopBarrier) {
		return fmt.Errorf("%s: unknown stop rule %q (want geometric or barrier)", beffio.KeyStop, c.Stop)
	}
	c.Rules = beffio.Rules(r.Config[beffio.KeyRules])
	if c.Rules == "" {
		c.Rules = beffio.RulesPaper
	}
	if !c.Rules.Valid() {
		return fmt.Errorf("%s: unknown rules %q (want %s or %s)", beffio.KeyRules, c.Rules, beffio.RulesPaper, beffio.RulesReference)
	}
	c.Dir = r.Config[beffio.KeyDir]
	c.FS = r.Config[beffio.KeyFS]
	c.DropCaches = r.Config[beffio.KeyDropCaches]
	return nil
}
