package fold

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"

	"github.com/beff-suite/beff/suites/beffio"
)

// Benchmark names of b_eff_io, as benchfmt reports them (without the
// "Benchmark" prefix).
const (
	// IOBenchName is the base name of the measurements of BenchmarkBeffIO.
	IOBenchName = "BeffIO"
	// IOFoldName is the base name of the folded b_eff_io figures.
	IOFoldName = "BeffIOFold"
)

// Pattern numbers of the b_eff_io lines that are not one pattern.
const (
	PatTotal = -1 // type=<type>/pat=total: the pattern-type total
	PatPhase = -2 // type=all/pat=phase: the access phase of a partition
)

// An IOKey names one b_eff_io line: partition, access method, pattern type
// and pattern (or PatTotal, PatPhase).
type IOKey struct {
	N      int // the partition: number of processes
	Access beffio.Access
	Type   beffio.Type // Scatter (0) for phase lines, which have type=all
	Pat    int         // pattern number 0..42, PatTotal or PatPhase
	// L and Mem are l and L of a pattern line (0 for the fill pattern and
	// for total and phase lines); Fill marks the fill pattern.
	L, Mem int64
	Fill   bool
}

// patternKey is the key of pattern p in partition n and access a.
func patternKey(n int, a beffio.Access, p beffio.Pattern) IOKey {
	return IOKey{N: n, Access: a, Type: p.Type, Pat: p.No, L: p.L, Mem: p.Mem, Fill: p.Fill}
}

func totalKey(n int, a beffio.Access, t beffio.Type) IOKey {
	return IOKey{N: n, Access: a, Type: t, Pat: PatTotal}
}

func phaseKey(n int, a beffio.Access) IOKey {
	return IOKey{N: n, Access: a, Pat: PatPhase}
}

// String returns the sub-benchmark name of the key,
// n=<n>/acc=<access>/type=<type>/pat=<No>/l=<l>/L=<L> for a pattern,
// …/type=<type>/pat=total for a pattern-type total and
// n=<n>/acc=<access>/type=all/pat=phase for an access phase.
func (k IOKey) String() string {
	s := fmt.Sprintf("n=%d/acc=%s/", k.N, k.Access)
	switch k.Pat {
	case PatPhase:
		return s + "type=all/pat=phase"
	case PatTotal:
		return s + "type=" + k.Type.String() + "/pat=total"
	}
	p := beffio.Pattern{No: k.Pat, Type: k.Type, L: k.L, Mem: k.Mem, Fill: k.Fill}
	return s + "type=" + k.Type.String() + "/" + p.Name()
}

// An IOMeasurement is one benchmark line of BenchmarkBeffIO. Which metrics
// a line has depends on its kind (see Read); absent counts are 0.
type IOMeasurement struct {
	IOKey
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
	Line     int // line in the file
	// Metrics holds every metric of the line, keyed by the unit as written
	// (MB/s, MB, s, reps, ns/op, …), with the value as written.
	Metrics map[string]float64
}

// Name is the benchmark name of m without the "Benchmark" prefix.
func (m *IOMeasurement) Name() string { return IOBenchName + "/" + m.IOKey.String() }

// IOConfig is the configuration of a b_eff_io run, from its benchfmt
// configuration lines.
type IOConfig struct {
	N          int                // mpi-procs: the number of processes
	Mode       string             // beff-mode: "full" or "short (...)"
	T          float64            // beffio-t-s: scheduled time of the whole run, seconds
	Partitions []int              // beffio-partitions: ascending
	MPART      int64              // beffio-mpart: the largest chunk, bytes
	Rewrite    beffio.RewriteMode // beffio-rewrite: which types are rewritten

	// Optional lines; 0 or empty when absent.
	MemMiB      int64 // beffio-mem-per-proc-mib: memory per process M, MiB
	TotalMemMiB int64 // beffio-totalmem-mib: total memory of the system MT, MiB
	// CacheMiB is the file-system cache estimate (beffio-cache-mib), MiB;
	// negative when not given.
	CacheMiB   float64
	Dir        string // beffio-dir: the directory of the files
	Stop       string // beffio-stop: geometric or barrier
	DropCaches string // beffio-dropcaches: off, drop_caches or fadvise
	Date       string // date
	Library    string // mpi-library
	Hosts      string // mpi-hosts
	Version    string // beff-version
}

// Short reports whether the run is a quick run (beff-mode: short ...).
func (c *IOConfig) Short() bool { return strings.HasPrefix(c.Mode, "short") }

// TPartition is the scheduled time of one partition, T / partitions.
func (c *IOConfig) TPartition() float64 { return c.T / float64(len(c.Partitions)) }

// An IORun is one execution of BenchmarkBeffIO: its configuration and its
// lines.
type IORun struct {
	File   string // the file it was read from
	Index  int    // 1-based index among the b_eff_io runs of its file
	Line   int    // line of its first measurement
	Config IOConfig
	// FileConfig holds every file configuration line in effect for the
	// run's lines, key → value as written (mpi-procs, beffio-*, date, …);
	// the run owns it.
	FileConfig map[string]string
	// Measurements in file order. Each key occurs at most once.
	Measurements []*IOMeasurement
	byKey        map[IOKey]*IOMeasurement
}

// Lookup returns the line of key k, or nil if the run has none.
func (r *IORun) Lookup(k IOKey) *IOMeasurement { return r.byKey[k] }

func (r *IORun) add(m *IOMeasurement) {
	if r.byKey == nil {
		r.byKey = map[IOKey]*IOMeasurement{}
	}
	r.Measurements = append(r.Measurements, m)
	r.byKey[m.IOKey] = m
}

const ioNameWant = "want n=<n>/acc=<access>/type=<type>/pat=<No>/l=<l>/L=<L>, …/pat=total or …/type=all/pat=phase"

// parseIOName parses BeffIO/n=<n>/acc=<access>/type=<type>/pat=…, allowing
// a -GOMAXPROCS suffix.
func parseIOName(name benchfmt.Name) (IOKey, error) {
	var k IOKey
	bad := fmt.Errorf("not a b_eff_io measurement name (%s)", ioNameWant)
	_, parts := name.Parts()
	if len(parts) > 0 && strings.HasPrefix(string(parts[len(parts)-1]), "-") {
		parts = parts[:len(parts)-1]
	}
	var keys, vals []string
	for _, p := range parts {
		kv, ok := strings.CutPrefix(string(p), "/")
		if !ok {
			return k, bad
		}
		key, val, _ := strings.Cut(kv, "=")
		keys, vals = append(keys, key), append(vals, val)
	}
	if len(keys) < 4 || !slices.Equal(keys[:4], []string{"n", "acc", "type", "pat"}) {
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
		k.Pat = PatPhase
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
		k.Pat = PatTotal
		return k, nil
	}
	no, err := strconv.Atoi(pat)
	if err != nil || no < 0 {
		return k, fmt.Errorf("pattern pat=%s is not a pattern number, total or phase", pat)
	}
	k.Pat = no
	if len(keys) != 6 || keys[4] != "l" || keys[5] != "L" {
		return k, bad
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

// parseIOMetrics extracts the metrics of a BenchmarkBeffIO line with key k:
//   - pattern lines: MB/s, reps, MB, s; errors on reads; sharedfp on type
//     shared; decisions and stop-ms optional;
//   - total lines: MB/s, MB, s;
//   - phase lines: s.
//
// Values must be finite and not negative, counts whole, sharedfp 0 or 1.
func parseIOMetrics(res *benchfmt.Result, k IOKey) (*IOMeasurement, error) {
	vals := map[string]float64{}
	for _, v := range res.Values {
		unit, val := v.Unit, v.Value
		if v.OrigUnit != "" {
			unit, val = v.OrigUnit, v.OrigValue
		}
		vals[unit] = val
	}
	m := &IOMeasurement{IOKey: k, SharedFP: -1, Metrics: vals}
	get := func(unit string, dst *float64, required bool) (bool, error) {
		v, ok := vals[unit]
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
	count := func(unit string, dst *int64, required bool) (bool, error) {
		var v float64
		ok, err := get(unit, &v, required)
		if err != nil || !ok {
			return ok, err
		}
		if v != math.Trunc(v) || v > math.MaxInt64/2 {
			return false, fmt.Errorf("%s = %v is not a whole number", unit, v)
		}
		*dst = int64(v)
		return true, nil
	}
	var err error
	if _, err = get("s", &m.Seconds, true); err != nil {
		return nil, err
	}
	if k.Pat == PatPhase {
		return m, nil
	}
	if _, err = get("MB/s", &m.MBps, true); err != nil {
		return nil, err
	}
	if _, err = get("MB", &m.MB, true); err != nil {
		return nil, err
	}
	if k.Pat == PatTotal {
		return m, nil
	}
	if _, err = count("reps", &m.Reps, true); err != nil {
		return nil, err
	}
	if _, err = count("errors", &m.Errors, k.Access == beffio.Read); err != nil {
		return nil, err
	}
	if m.HasStop, err = count("decisions", &m.Decisions, false); err != nil {
		return nil, err
	}
	hasMs, err := get("stop-ms", &m.StopMs, false)
	if err != nil {
		return nil, err
	}
	m.HasStop = m.HasStop || hasMs
	var capped int64
	if _, err = count("capped", &capped, false); err != nil {
		return nil, err
	}
	m.Capped = capped > 0
	var fp int64
	ok, err := count("sharedfp", &fp, k.Type == beffio.Shared)
	if err != nil {
		return nil, err
	}
	if ok {
		if fp > 1 {
			return nil, fmt.Errorf("sharedfp = %d is neither 0 nor 1", fp)
		}
		m.SharedFP = int(fp)
	}
	return m, nil
}

// parseIOConfig reads the b_eff_io configuration of res.
func parseIOConfig(res *benchfmt.Result) (IOConfig, error) {
	c := IOConfig{CacheMiB: -1}
	need := func(key string) (string, error) {
		v := res.GetConfig(key)
		if v == "" {
			return "", fmt.Errorf("not b_eff_io output: no %s configuration line", key)
		}
		return v, nil
	}
	posInt := func(key, v string) (int64, error) {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			return 0, fmt.Errorf("%s: %q is not a positive whole number", key, v)
		}
		return n, nil
	}
	v, err := need("mpi-procs")
	if err != nil {
		return c, err
	}
	n, err := posInt("mpi-procs", v)
	if err != nil {
		return c, err
	}
	c.N = int(n)
	if c.Mode, err = need("beff-mode"); err != nil {
		return c, err
	}
	if c.Mode != "full" && !c.Short() {
		return c, fmt.Errorf("beff-mode: unknown mode %q (want full or short)", c.Mode)
	}
	if v, err = need("beffio-t-s"); err != nil {
		return c, err
	}
	if c.T, err = strconv.ParseFloat(v, 64); err != nil || !(c.T > 0) || math.IsInf(c.T, 0) {
		return c, fmt.Errorf("beffio-t-s: %q is not a positive number of seconds", v)
	}
	if v, err = need("beffio-partitions"); err != nil {
		return c, err
	}
	for _, s := range strings.Split(v, ",") {
		p, err := posInt("beffio-partitions", strings.TrimSpace(s))
		if err != nil {
			return c, err
		}
		if len(c.Partitions) > 0 && int(p) <= c.Partitions[len(c.Partitions)-1] {
			return c, fmt.Errorf("beffio-partitions: %s: the partitions must increase", v)
		}
		if int(p) > c.N {
			return c, fmt.Errorf("beffio-partitions: partition %d is larger than mpi-procs %d", p, c.N)
		}
		c.Partitions = append(c.Partitions, int(p))
	}
	if v, err = need("beffio-mpart"); err != nil {
		return c, err
	}
	if c.MPART, err = posInt("beffio-mpart", v); err != nil {
		return c, err
	}
	if c.MPART%8 != 0 {
		return c, fmt.Errorf("beffio-mpart: %d bytes is not a multiple of 8", c.MPART)
	}
	if v, err = need("beffio-rewrite"); err != nil {
		return c, err
	}
	c.Rewrite = beffio.RewriteMode(v)
	if c.Rewrite != beffio.RewriteAll && c.Rewrite != beffio.RewriteScatter {
		return c, fmt.Errorf("beffio-rewrite: unknown mode %q (want all or scatter)", v)
	}
	if v := res.GetConfig("beffio-mem-per-proc-mib"); v != "" {
		if c.MemMiB, err = posInt("beffio-mem-per-proc-mib", v); err != nil {
			return c, err
		}
	}
	if v := res.GetConfig("beffio-totalmem-mib"); v != "" {
		if c.TotalMemMiB, err = posInt("beffio-totalmem-mib", v); err != nil {
			return c, err
		}
	}
	if v := res.GetConfig("beffio-cache-mib"); v != "" {
		c.CacheMiB, err = strconv.ParseFloat(v, 64)
		if err != nil || !(c.CacheMiB >= 0) || math.IsInf(c.CacheMiB, 0) {
			return c, fmt.Errorf("beffio-cache-mib: %q is not a number of MiB ≥ 0", v)
		}
	}
	c.Stop = res.GetConfig("beffio-stop")
	if c.Stop != "" && c.Stop != string(beffio.StopGeometric) && c.Stop != string(beffio.StopBarrier) {
		return c, fmt.Errorf("beffio-stop: unknown stop rule %q (want geometric or barrier)", c.Stop)
	}
	c.Dir = res.GetConfig("beffio-dir")
	c.DropCaches = res.GetConfig("beffio-dropcaches")
	c.Date = res.GetConfig("date")
	c.Library = res.GetConfig("mpi-library")
	c.Hosts = res.GetConfig("mpi-hosts")
	c.Version = res.GetConfig("beff-version")
	return c, nil
}
