package results

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"strings"

	"golang.org/x/perf/benchfmt"
)

// An InputError is a problem with the input. It prints as "file:line: msg", or
// as "file: msg" when Line is 0 (the problem concerns the whole file).
type InputError struct {
	FileName string
	Line     int
	Msg      string
}

func (e *InputError) Error() string {
	if e.Line <= 0 {
		return fmt.Sprintf("%s: %s", e.FileName, e.Msg)
	}
	return fmt.Sprintf("%s:%d: %s", e.FileName, e.Line, e.Msg)
}

// A Line is one result line of a suite's benchmark.
type Line struct {
	// Full is the benchmark name without "Benchmark", as written
	// ("Beff/pat=ring2/L=1/mthd=sendrecv").
	Full string
	// Parts are the key=value parts of the sub-benchmark name, in order,
	// without a -GOMAXPROCS suffix; nil when a part does not start with
	// '/' (the name is not key=value-shaped).
	Parts []Part
	// Name is the canonical sub-benchmark name the suite gave the line.
	Name string
	// Metrics holds every metric of the line, keyed by the unit as written
	// (MB/s, ns/op, …), with the value as written (benchfmt tidies MB/s
	// into B/s; the original is kept).
	Metrics map[string]float64
	Iters   int // benchmark iterations
	Line    int // line in the file
	// Value is the suite's reading of the line (Suite.ParseLine).
	Value any
}

// A Part is one key=value part of a sub-benchmark name.
type Part struct{ Key, Value string }

// A Run is one execution of a suite's benchmark: its configuration and
// its lines.
type Run struct {
	Suite Suite
	File  string // the file it was read from
	Index int    // 1-based index among the runs of its suite in its file
	// Launch is the 1-based number of the run's configuration block among
	// those of its suite in its file: one launch of the job (mpirun),
	// whose -test.count repetitions share it.
	Launch int
	Line   int // line of its first measurement
	// FileConfig holds every file configuration line in effect for the
	// run's lines, key → value as written (mpi-procs, beff-*, date, goos,
	// …); the run owns it.
	FileConfig Config
	// Parsed is the suite's reading of the configuration
	// (Suite.ParseConfig).
	Parsed any
	// Lines in file order. Each name occurs at most once.
	Lines  []*Line
	byName map[string]*Line
}

// Lookup returns the line of the canonical name, or nil.
func (r *Run) Lookup(name string) *Line { return r.byName[name] }

func (r *Run) add(l *Line) {
	if r.byName == nil {
		r.byName = map[string]*Line{}
	}
	r.Lines = append(r.Lines, l)
	r.byName[l.Name] = l
}

// A File is what one results file holds of the suites.
type File struct {
	Name string
	// Runs are the runs of every suite, in the order they start.
	Runs []*Run
	// ConfigKeys are the file configuration keys in effect at the file's
	// last benchmark line, in order.
	ConfigKeys []string
	// Better is each unit's direction as the file's Unit lines declare it
	// ("Unit MB/s better=higher"): unit as written → "higher" or "lower".
	Better map[string]string
	// folded counts the lines of folded figures already in the file (from
	// an earlier fold -append), per suite's benchmark.
	folded map[string]int
}

// RunsOf returns the runs of suite s, in the order they start.
func (f *File) RunsOf(s Suite) []*Run {
	var out []*Run
	for _, r := range f.Runs {
		if Same(r.Suite, s) {
			out = append(out, r)
		}
	}
	return out
}

// Partial is why the file's job was cut short (its runs carry
// KeyPartial), or "".
func (f *File) Partial() string {
	for _, r := range f.Runs {
		if v := r.FileConfig[KeyPartial]; v != "" {
			return v
		}
	}
	return ""
}

// FoldedLines is the number of lines of s's folded figures in the file.
func (f *File) FoldedLines(s Suite) int { return f.folded[s.ID().Bench] }

// ReadFile reads the results file at path; see Read.
func ReadFile(path string, suites []Suite) (*File, error) {
	data, err := ReadInput(path)
	if err != nil {
		return nil, err
	}
	return Read(bytes.NewReader(data), path, suites)
}

// A group is the runs of one suite under one file configuration.
type group struct {
	cfg    any
	launch int // 1-based, per suite and file
	count  map[string]int
	runs   []*Run
}

// A reader is the state of Read.
type reader struct {
	f      *File
	suites []Suite
	groups map[Suite]map[string]*group
	in     *lineLimit
	// the file configuration of the last result: its signature and map,
	// taken again only when a line that is not a result came between
	watch configWatch
	sig   string
	cfg   Config
}

// configWatch tells a reader when the configuration of a result line
// may have changed (a line that is not a result came since the last
// one) and gives its signature then; the bytes of signatures taken stay
// below twice the input plus MaxConfigBytes, so that time and memory
// stay proportional to the input.
type configWatch struct {
	in    *lineLimit
	epoch int
	bytes int64
}

// changed returns the signature of res's configuration and true when it
// may have changed.
func (w *configWatch) changed(res *benchfmt.Result) (string, bool, error) {
	if w.in.epoch == w.epoch {
		return "", false, nil
	}
	w.epoch = w.in.epoch
	sig := configSignature(res, w.in.Stale)
	if w.bytes += int64(len(sig)); w.bytes > 2*w.in.total+MaxConfigBytes {
		return "", false, fmt.Errorf("the configuration changes too often for its size (%d bytes of configuration lines taken): not written by beff, or damaged", w.bytes)
	}
	return sig, true, nil
}

// Limits of Read (besides MaxLine): a file of a few hundred bytes could
// otherwise make millions of runs, or copy its configuration at every
// line.
const (
	MaxRuns        = 10000   // runs of one suite in one file
	MaxConfigBytes = 1 << 20 // bytes of configuration taken beyond twice the input
)

// Read reads benchfmt output of the suites' benchmarks from r; fileName
// names it in positions. Lines of other benchmarks are skipped, lines of
// folded figures counted. Results of one suite whose configuration lines
// are equal and whose name occurs for the k-th time belong to the k-th run
// of that configuration; runs are numbered per suite in the order they
// start.
//
// Read returns an *Error for a syntax error anywhere in the input, for a
// line or configuration the suite refuses (Suite.ParseLine,
// Suite.ParseConfig), and for input without any run. The returned File owns
// its memory.
func Read(r io.Reader, fileName string, suites []Suite) (*File, error) {
	if fileName == "" {
		fileName = "<input>"
	}
	r, err := skipBOM(r, fileName)
	if err != nil {
		return nil, err
	}
	in := LimitLines(r, fileName).(*lineLimit)
	rd := &reader{f: &File{Name: fileName, folded: map[string]int{}}, suites: suites, groups: map[Suite]map[string]*group{}, in: in, watch: configWatch{in: in, epoch: -1}}
	br := benchfmt.NewReader(in, fileName)
	for br.Scan() {
		switch rec := br.Result().(type) {
		case *benchfmt.SyntaxError:
			return nil, &InputError{fileName, rec.Line, rec.Msg}
		case *benchfmt.Result:
			if err := rd.result(rec); err != nil {
				return nil, err
			}
		case *benchfmt.UnitMetadata:
			if err := rd.unit(rec); err != nil {
				return nil, err
			}
		}
	}
	if err := br.Err(); err != nil {
		return nil, ReaderErr(err)
	}
	if len(rd.f.Runs) == 0 {
		var names []string
		for _, s := range suites {
			names = append(names, s.ID().Benchmark())
		}
		return nil, &InputError{fileName, 0, "not beff output: no " + JoinWith(names, "or") + " results"}
	}
	return rd.f, nil
}

// skipBOM returns r without a UTF-8 byte-order mark at its start (an
// editor's, which would otherwise become part of the first key), and
// refuses a UTF-16 or UTF-32 one: such a file would read as no results.
func skipBOM(r io.Reader, fileName string) (io.Reader, error) {
	br := bufio.NewReader(r)
	head, _ := br.Peek(4)
	switch {
	case bytes.HasPrefix(head, []byte("\xef\xbb\xbf")):
		br.Discard(3)
	case bytes.HasPrefix(head, []byte("\xff\xfe")), bytes.HasPrefix(head, []byte("\xfe\xff")), bytes.HasPrefix(head, []byte("\x00\x00\xfe\xff")):
		return nil, &InputError{fileName, 1, "encoded as UTF-16 or UTF-32 (it starts with that byte-order mark); beff reads UTF-8: convert it, e.g. iconv -f UTF-16 -t UTF-8"}
	}
	return br, nil
}

// unit takes a unit's direction from its Unit line (better=higher or
// better=lower); other keys (assume=exact) are benchfmt's own. benchfmt
// refuses a second, different value for a unit.
func (rd *reader) unit(u *benchfmt.UnitMetadata) error {
	if u.Key != "better" {
		return nil
	}
	if u.Value != "higher" && u.Value != "lower" {
		_, line := u.Pos()
		return &InputError{rd.f.Name, line, fmt.Sprintf("Unit %s better=%s: want better=higher or better=lower", u.OrigUnit, u.Value)}
	}
	if rd.f.Better == nil {
		rd.f.Better = map[string]string{}
	}
	rd.f.Better[u.OrigUnit] = u.Value
	return nil
}

// result takes one result line.
func (rd *reader) result(res *benchfmt.Result) error {
	_, line := res.Pos()
	rd.f.ConfigKeys = rd.f.ConfigKeys[:0]
	for _, c := range res.Config {
		if c.File {
			rd.f.ConfigKeys = append(rd.f.ConfigKeys, c.Key)
		}
	}
	base := string(res.Name.Base())
	for _, s := range rd.suites {
		switch base {
		case s.ID().FoldBench():
			rd.f.folded[s.ID().Bench]++
		case s.ID().Bench:
			return rd.line(s, res, line)
		}
	}
	return nil
}

// line adds a line of suite s to its run.
func (rd *reader) line(s Suite, res *benchfmt.Result, line int) error {
	lineErr := func(format string, args ...any) error {
		return &InputError{rd.f.Name, line, fmt.Sprintf(format, args...)}
	}
	l := &Line{Full: string(res.Name), Parts: nameParts(res.Name), Metrics: metrics(res), Iters: res.Iters, Line: line}
	if ns, ok := l.Metrics["ns/op"]; ok && !(ns > 0) {
		return lineErr("%s: %v ns/op: testing writes a positive time or none; not written by beff, or edited", res.Name, ns)
	}
	name, value, err := s.ParseLine(l)
	switch {
	case err != nil && name == "":
		return lineErr("%s: %v", res.Name, err)
	case err != nil:
		return lineErr("%s: %v", name, err)
	}
	l.Name, l.Value = name, value
	if err := rd.config(res); err != nil {
		return lineErr("%v", err)
	}
	if rd.groups[s] == nil {
		rd.groups[s] = map[string]*group{}
	}
	g := rd.groups[s][rd.sig]
	if g == nil {
		cfg, err := s.ParseConfig(rd.cfg)
		if err != nil {
			return lineErr("%v", err)
		}
		g = &group{cfg: cfg, launch: len(rd.groups[s]) + 1, count: map[string]int{}}
		rd.groups[s][rd.sig] = g
	}
	k := g.count[name]
	g.count[name]++
	if k == len(g.runs) {
		if k == MaxRuns {
			return lineErr("more than %d runs of %s under one configuration: not written by beff, or damaged", MaxRuns, s.ID().Name)
		}
		run := &Run{Suite: s, File: rd.f.Name, Launch: g.launch, Line: line, Parsed: g.cfg, FileConfig: rd.cfg}
		g.runs = append(g.runs, run)
		rd.f.Runs = append(rd.f.Runs, run)
		run.Index = len(rd.f.RunsOf(s))
	}
	g.runs[k].add(l)
	return nil
}

// nameParts splits the sub-benchmark name of name into its key=value
// parts, without a -GOMAXPROCS suffix; nil when a part does not start with
// '/'.
func nameParts(name benchfmt.Name) []Part {
	_, parts := name.Parts()
	if len(parts) > 0 && strings.HasPrefix(string(parts[len(parts)-1]), "-") {
		parts = parts[:len(parts)-1]
	}
	out := []Part{}
	for _, p := range parts {
		kv, ok := strings.CutPrefix(string(p), "/")
		if !ok {
			return nil
		}
		k, v, _ := strings.Cut(kv, "=")
		out = append(out, Part{k, v})
	}
	return out
}

// metrics returns the metrics of res in the units the benchmark wrote
// them (benchfmt tidies MB/s to B/s and ns/op to sec/op; the original
// values are kept alongside).
func metrics(res *benchfmt.Result) map[string]float64 {
	vals := map[string]float64{}
	for _, v := range res.Values {
		unit, val := v.Unit, v.Value
		if v.OrigUnit != "" {
			unit, val = v.OrigUnit, v.OrigValue
		}
		vals[unit] = val
	}
	return vals
}

// config takes the file configuration of res when a line that is not a
// result came since the last result (the configuration may have changed);
// runs share the map, which no one changes.
func (rd *reader) config(res *benchfmt.Result) error {
	sig, changed, err := rd.watch.changed(res)
	if changed && (sig != rd.sig || rd.cfg == nil) {
		rd.sig, rd.cfg = sig, fileConfig(res, rd.in.Stale)
	}
	return err
}

// configSignature identifies the file configuration of res, without the
// keys of an earlier job (stale).
func configSignature(res *benchfmt.Result, stale func(string) bool) string {
	var b strings.Builder
	for _, c := range res.Config {
		if c.File && !stale(c.Key) {
			fmt.Fprintf(&b, "%s\x00%s\x00", c.Key, c.Value)
		}
	}
	return b.String()
}

// fileConfig returns the file configuration of res, without the keys of
// an earlier job (stale).
func fileConfig(res *benchfmt.Result, stale func(string) bool) Config {
	m := Config{}
	for _, c := range res.Config {
		if c.File && !stale(c.Key) {
			m[c.Key] = string(c.Value)
		}
	}
	return m
}

// RoundedMBps is the largest MB/s value whose printed form has fewer than
// three significant digits: the testing package writes MB/s with two
// decimals, so 0.004 MB/s prints as 0.00.
const RoundedMBps = 1.0

// PreciseMBps returns the bandwidth a suite should use for a line: the
// printed MB/s, or, when testing's two decimals leave it fewer than three
// significant digits, the same bandwidth computed from the line's other
// (four-digit) metrics. computed is that bandwidth (≤ 0 or not finite:
// not known, the printed value stays, as does a negative one, which no
// rounding explains).
func PreciseMBps(printed, computed float64) float64 {
	if !(printed >= 0 && printed < RoundedMBps) || !(computed > 0) || math.IsInf(computed, 0) {
		return printed
	}
	return computed
}
