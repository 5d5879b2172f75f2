package fold

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"

	"github.com/beff-suite/beff/suites/beff"
)

// Benchmark names, as benchfmt reports them (without the "Benchmark" prefix).
const (
	// BenchName is the base name of the measurements of BenchmarkBeff.
	BenchName = "Beff"
	// FoldName is the base name of the folded figures this package writes.
	FoldName = "BeffFold"
)

// An Error is a problem with b_eff input. It prints as "file:line: msg",
// or as "file: msg" when Line is 0 (the problem concerns the whole file).
type Error struct {
	FileName string
	Line     int
	Msg      string
}

func (e *Error) Error() string {
	if e.Line <= 0 {
		return fmt.Sprintf("%s: %s", e.FileName, e.Msg)
	}
	return fmt.Sprintf("%s:%d: %s", e.FileName, e.Line, e.Msg)
}

// Config is the configuration of a run, from its benchfmt configuration
// lines.
type Config struct {
	N      int     // mpi-procs: the number of processes
	Lmax   int64   // beff-lmax: the largest message, bytes
	Sizes  []int64 // beff-sizes: the measured message sizes, ascending; the last is Lmax
	Random int     // beff-random-patterns: the number of random patterns
	Mode   string  // beff-mode: "full" or "short (...)"
	Rmax   float64 // beff-rmax-gflops: Linpack Rmax in GFlop/s, 0 when not given
	// Patterns is the restriction of a deliberately partial run
	// (beff-patterns), nil when every pattern was measured.
	Patterns []string

	// Descriptive lines, empty when absent.
	MemMiB  int64  // beff-mem-per-proc-mib: memory per process, MiB (0: unknown)
	Seed    string // beff-seed
	Date    string // date
	Library string // mpi-library
	Hosts   string // mpi-hosts
	Version string // beff-version
}

// Short reports whether the run is a quick run (beff-mode: short ...),
// which is not valid for comparison.
func (c *Config) Short() bool { return strings.HasPrefix(c.Mode, "short") }

// A Key names one measurement: pattern, message size and method.
type Key struct {
	Pattern string
	L       int64
	Method  beff.Method
}

// String returns the sub-benchmark name of the key,
// pat=<pattern>/L=<bytes>/mthd=<method>.
func (k Key) String() string {
	return fmt.Sprintf("pat=%s/L=%d/mthd=%s", k.Pattern, k.L, k.Method)
}

// A Measurement is one benchmark line of BenchmarkBeff.
type Measurement struct {
	Key
	MBps      float64 // MB/s: the best repetition (the value b_eff uses), 1e6 B/s
	MinMBps   float64 // min-MB/s: the worst repetition
	AvgMBps   float64 // avg-MB/s: the mean over repetitions
	MsPerLoop float64 // ms/loop: loop time of the best repetition, max over ranks
	LoopLen   int     // looplen: iterations of the timed loop
	Reps      int     // reps: repetitions
	NsPerOp   float64 // ns/op: wall time of the sub-benchmark per iteration
	Iters     int     // benchmark iterations (1)
	Line      int     // line in the file
	// Metrics holds every metric of the line, keyed by the unit as written
	// (MB/s, ns/op, looplen, …), with the value as written.
	Metrics map[string]float64
}

// A Run is one execution of BenchmarkBeff: its configuration and its
// measurements.
type Run struct {
	File   string // the file it was read from
	Index  int    // 1-based index of the run within its file
	Line   int    // line of its first measurement
	Config Config
	// FileConfig holds every file configuration line in effect for the
	// run's measurements, key → value as written (mpi-procs, beff-*, date,
	// goos, …); the run owns it.
	FileConfig map[string]string
	// Measurements in file order. Each key occurs at most once.
	Measurements []*Measurement
	byKey        map[Key]*Measurement
}

// Lookup returns the measurement of pattern pat at size l with method m, or
// nil if the run has none.
func (r *Run) Lookup(pat string, l int64, m beff.Method) *Measurement {
	return r.byKey[Key{pat, l, m}]
}

func (r *Run) add(m *Measurement) {
	if r.byKey == nil {
		r.byKey = map[Key]*Measurement{}
	}
	r.Measurements = append(r.Measurements, m)
	r.byKey[m.Key] = m
}

// A File is the b_eff and b_eff_io content of one results file.
type File struct {
	Name string
	Runs []*Run // the runs of BenchmarkBeff
	// IORuns are the runs of BenchmarkBeffIO.
	IORuns []*IORun
	// Folded counts the BenchmarkBeffFold lines already in the file (from
	// an earlier fold -append).
	Folded int
	// FoldedIO counts the BenchmarkBeffIOFold lines already in the file.
	FoldedIO int
	// ConfigKeys are the file configuration keys in effect at the file's
	// last benchmark line, in order.
	ConfigKeys []string
}

// ReadFile reads the results file at path; see Read.
func ReadFile(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Read(bytes.NewReader(data), path)
}

// Read reads benchfmt output of BenchmarkBeff and BenchmarkBeffIO from r;
// fileName names it in positions. A file may hold either or both. Lines of
// other benchmarks are skipped, BenchmarkBeffFold and BenchmarkBeffIOFold
// lines counted. Results of one benchmark whose configuration lines are
// equal and whose name occurs for the k-th time belong to the k-th run of
// that configuration; runs are numbered in the order they start, b_eff and
// b_eff_io runs separately.
//
// Read returns an *Error for a syntax error anywhere in the input, for a
// BenchmarkBeff line that is not a b_eff measurement or a BenchmarkBeffIO
// line that is not a b_eff_io measurement (name or metrics), for missing or
// malformed configuration lines of either, and for input with neither
// ("not b_eff output"). The returned File owns its memory.
func Read(r io.Reader, fileName string) (*File, error) {
	if fileName == "" {
		fileName = "<input>"
	}
	type group struct {
		cfg   Config
		count map[Key]int
		runs  []*Run
	}
	type ioGroup struct {
		cfg   IOConfig
		count map[IOKey]int
		runs  []*IORun
	}
	f := &File{Name: fileName}
	groups := map[string]*group{}
	ioGroups := map[string]*ioGroup{}
	br := benchfmt.NewReader(r, fileName)
	for br.Scan() {
		var res *benchfmt.Result
		switch rec := br.Result().(type) {
		case *benchfmt.SyntaxError:
			return nil, &Error{fileName, rec.Line, rec.Msg}
		case *benchfmt.Result:
			res = rec
		default:
			continue // unit metadata
		}
		_, line := res.Pos()
		f.ConfigKeys = f.ConfigKeys[:0]
		for _, c := range res.Config {
			if c.File {
				f.ConfigKeys = append(f.ConfigKeys, c.Key)
			}
		}
		lineErr := func(format string, args ...any) error {
			return &Error{fileName, line, fmt.Sprintf(format, args...)}
		}
		switch string(res.Name.Base()) {
		case FoldName:
			f.Folded++
			continue
		case IOFoldName:
			f.FoldedIO++
			continue
		case BenchName:
		case IOBenchName:
			key, err := parseIOName(res.Name)
			if err != nil {
				return nil, lineErr("%s: %v", res.Name, err)
			}
			m, err := parseIOMetrics(res, key)
			if err != nil {
				return nil, lineErr("%s: %v", key, err)
			}
			m.Line = line
			sig := configSignature(res)
			g := ioGroups[sig]
			if g == nil {
				cfg, err := parseIOConfig(res)
				if err != nil {
					return nil, lineErr("%v", err)
				}
				g = &ioGroup{cfg: cfg, count: map[IOKey]int{}}
				ioGroups[sig] = g
			}
			k := g.count[key]
			g.count[key]++
			if k == len(g.runs) {
				run := &IORun{File: fileName, Line: line, Config: g.cfg, FileConfig: fileConfig(res)}
				g.runs = append(g.runs, run)
				f.IORuns = append(f.IORuns, run)
				run.Index = len(f.IORuns)
			}
			g.runs[k].add(m)
			continue
		default:
			continue
		}
		key, err := parseName(res.Name)
		if err != nil {
			return nil, lineErr("%s: %v", res.Name, err)
		}
		m, err := parseMetrics(res)
		if err != nil {
			return nil, lineErr("%s: %v", key, err)
		}
		m.Key, m.Line = key, line

		sig := configSignature(res)
		g := groups[sig]
		if g == nil {
			cfg, err := parseConfig(res)
			if err != nil {
				return nil, lineErr("%v", err)
			}
			g = &group{cfg: cfg, count: map[Key]int{}}
			groups[sig] = g
		}
		k := g.count[key]
		g.count[key]++
		if k == len(g.runs) {
			run := &Run{File: fileName, Line: line, Config: g.cfg, FileConfig: fileConfig(res)}
			g.runs = append(g.runs, run)
			f.Runs = append(f.Runs, run)
			run.Index = len(f.Runs)
		}
		g.runs[k].add(m)
	}
	if err := br.Err(); err != nil {
		return nil, err
	}
	if len(f.Runs) == 0 && len(f.IORuns) == 0 {
		return nil, &Error{fileName, 0, "not b_eff output: no BenchmarkBeff or BenchmarkBeffIO results"}
	}
	return f, nil
}

// configSignature identifies the file configuration of res.
func configSignature(res *benchfmt.Result) string {
	var b strings.Builder
	for _, c := range res.Config {
		if c.File {
			fmt.Fprintf(&b, "%s\x00%s\x00", c.Key, c.Value)
		}
	}
	return b.String()
}

// fileConfig returns the file configuration of res as a map.
func fileConfig(res *benchfmt.Result) map[string]string {
	m := map[string]string{}
	for _, c := range res.Config {
		if c.File {
			m[c.Key] = string(c.Value)
		}
	}
	return m
}

// parseName parses Beff/pat=<pattern>/L=<bytes>/mthd=<method>, allowing a
// -GOMAXPROCS suffix.
func parseName(name benchfmt.Name) (Key, error) {
	var k Key
	_, parts := name.Parts()
	if len(parts) > 0 && strings.HasPrefix(string(parts[len(parts)-1]), "-") {
		parts = parts[:len(parts)-1]
	}
	var got []string
	for _, p := range parts {
		kv, ok := strings.CutPrefix(string(p), "/")
		if !ok {
			return k, fmt.Errorf("not a b_eff measurement name (want pat=<pattern>/L=<bytes>/mthd=<method>)")
		}
		key, val, _ := strings.Cut(kv, "=")
		got = append(got, key)
		switch key {
		case "pat":
			k.Pattern = val
		case "L":
			l, err := strconv.ParseInt(val, 10, 64)
			if err != nil || l <= 0 {
				return k, fmt.Errorf("message size L=%s is not a positive number of bytes", val)
			}
			k.L = l
		case "mthd":
			m, ok := beff.ParseMethod(val)
			if !ok {
				return k, fmt.Errorf("unknown method %q", val)
			}
			k.Method = m
		}
	}
	if !slices.Equal(got, []string{"pat", "L", "mthd"}) || k.Pattern == "" {
		return k, fmt.Errorf("not a b_eff measurement name (want pat=<pattern>/L=<bytes>/mthd=<method>)")
	}
	return k, nil
}

// parseMetrics extracts the metrics of a BenchmarkBeff line, in the units
// the benchmark wrote them (benchfmt tidies MB/s to B/s and ns/op to sec/op;
// the original values are kept alongside).
func parseMetrics(res *benchfmt.Result) (*Measurement, error) {
	vals := map[string]float64{}
	for _, v := range res.Values {
		unit, val := v.Unit, v.Value
		if v.OrigUnit != "" {
			unit, val = v.OrigUnit, v.OrigValue
		}
		vals[unit] = val
	}
	get := func(unit string) (float64, error) {
		v, ok := vals[unit]
		if !ok {
			return 0, fmt.Errorf("missing metric %s", unit)
		}
		return v, nil
	}
	count := func(unit string) (int, error) {
		v, err := get(unit)
		if err != nil {
			return 0, err
		}
		if v < 1 || v != math.Trunc(v) || v > math.MaxInt32 {
			return 0, fmt.Errorf("%s = %v is not a positive whole number", unit, v)
		}
		return int(v), nil
	}
	m := &Measurement{Iters: res.Iters, Metrics: vals}
	var err error
	for _, x := range []struct {
		unit string
		dst  *float64
	}{
		{"MB/s", &m.MBps}, {"min-MB/s", &m.MinMBps}, {"avg-MB/s", &m.AvgMBps},
		{"ms/loop", &m.MsPerLoop}, {"ns/op", &m.NsPerOp},
	} {
		if *x.dst, err = get(x.unit); err != nil {
			return nil, err
		}
	}
	if m.LoopLen, err = count("looplen"); err != nil {
		return nil, err
	}
	if m.Reps, err = count("reps"); err != nil {
		return nil, err
	}
	return m, nil
}

// parseConfig reads the b_eff configuration of res.
func parseConfig(res *benchfmt.Result) (Config, error) {
	var c Config
	need := func(key string) (string, error) {
		v := res.GetConfig(key)
		if v == "" {
			return "", fmt.Errorf("not b_eff output: no %s configuration line", key)
		}
		return v, nil
	}
	posInt := func(key string) (int64, error) {
		v, err := need(key)
		if err != nil {
			return 0, err
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			return 0, fmt.Errorf("%s: %q is not a positive whole number", key, v)
		}
		return n, nil
	}
	n, err := posInt("mpi-procs")
	if err != nil {
		return c, err
	}
	c.N = int(n)
	if c.Lmax, err = posInt("beff-lmax"); err != nil {
		return c, err
	}
	random, err := posInt("beff-random-patterns")
	if err != nil {
		return c, err
	}
	c.Random = int(random)
	sizes, err := need("beff-sizes")
	if err != nil {
		return c, err
	}
	for _, s := range strings.Split(sizes, ",") {
		l, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if err != nil || l <= 0 {
			return c, fmt.Errorf("beff-sizes: %q is not a positive number of bytes", s)
		}
		if len(c.Sizes) > 0 && l <= c.Sizes[len(c.Sizes)-1] {
			return c, fmt.Errorf("beff-sizes: %s: the sizes must increase", sizes)
		}
		c.Sizes = append(c.Sizes, l)
	}
	if last := c.Sizes[len(c.Sizes)-1]; last != c.Lmax {
		return c, fmt.Errorf("beff-sizes: the largest size %d differs from beff-lmax %d", last, c.Lmax)
	}
	if c.Mode, err = need("beff-mode"); err != nil {
		return c, err
	}
	if c.Mode != "full" && !c.Short() {
		return c, fmt.Errorf("beff-mode: unknown mode %q (want full or short)", c.Mode)
	}
	if v := res.GetConfig("beff-rmax-gflops"); v != "" {
		c.Rmax, err = strconv.ParseFloat(v, 64)
		if err != nil || !(c.Rmax > 0) || math.IsInf(c.Rmax, 0) {
			return c, fmt.Errorf("beff-rmax-gflops: %q is not a positive number of GFlop/s", v)
		}
	}
	if v := res.GetConfig("beff-patterns"); v != "" {
		for _, p := range strings.Split(v, ",") {
			c.Patterns = append(c.Patterns, strings.TrimSpace(p))
		}
	}
	if v := res.GetConfig("beff-mem-per-proc-mib"); v != "" {
		if c.MemMiB, err = strconv.ParseInt(v, 10, 64); err != nil || c.MemMiB <= 0 {
			return c, fmt.Errorf("beff-mem-per-proc-mib: %q is not a positive whole number", v)
		}
	}
	c.Seed = res.GetConfig("beff-seed")
	c.Date = res.GetConfig("date")
	c.Library = res.GetConfig("mpi-library")
	c.Hosts = res.GetConfig("mpi-hosts")
	c.Version = res.GetConfig("beff-version")
	return c, nil
}
