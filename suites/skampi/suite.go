package skampi

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// A Setup is one named suite of a run as a suite file gives it
// (docs/skampi.md, "Suite files"; SKaMPI's word, kept in the files):
// operations measured along one parameter, the others fixed, with one
// accuracy rule and one way to start repetitions.
type Setup struct {
	Name    string
	Ops     []int // indexes in Ops, table order
	Vary    Vary  // VaryLength, VaryProcs, VaryChunks, or 0 for one point
	Lengths Sweep // VaryLength: the grid of lengths
	Refine  bool  // VaryLength: add lengths where interpolation fails (Refiner)
	Points  int   // refinement: most lengths per operation, 0 for twice the grid
	Len     int64 // the length where it is not varied
	Procs   []int // process counts: one unless VaryProcs
	// ProcsStep is the factor between the counts of a range a:b of procs
	// (a, a·step, …, b); 1 for every count.
	ProcsStep float64
	Chunks    []int // work items per repetition: one unless VaryChunks
	Pair      string
	Rule      Rule    // Eps, Min, Max, Budget of every point
	Time      float64 // seconds: a refined curve adds no length after this long (0: no limit)
	Sync      string
	Cache     string
	Warmup    int
	Calls     int    // calls per repetition; 0: decided from the warm-up (CallsAuto)
	Timer     string // TimerSubtract (also "") or TimerKeep
	Span      int64  // cold cache: the calls cycle over this many bytes of each buffer (0: all)
	// MaxBuffer caps the bytes one call may use of each buffer
	// (Footprint): the points above it are left out of the plan (0: no
	// cap).
	MaxBuffer int64
	// SendType and RecvType are a typed suite's datatypes (nil: bytes;
	// RecvType nil: the send type); Methods how its messages travel.
	SendType, RecvType *Type
	Methods            []string
	// One-sided operations: the synchronisation of their epochs
	// (RMASyncs), the window's making and the assertions passed.
	RMASync, Window, Assert string
	// Topology is what the neighborhood collectives run on (Topologies).
	Topology string
}

// A Curve is one operation of a suite (with one method of a typed
// suite): the points that vary its parameter.
type Curve struct {
	Suite  *Setup
	Op     int
	Method string // typed suites: one of MethodNames; "" otherwise
}

// Curves are the suite's operations in table order, each with every
// method of a typed suite.
func (s *Setup) Curves() []Curve {
	var out []Curve
	for _, op := range s.Ops {
		if !s.Typed() || Ops[op].Pattern == Simple {
			out = append(out, Curve{s, op, ""})
			continue
		}
		for _, m := range s.Methods {
			if !Ops[op].RMA() || m == MethodDatatype || m == MethodContig { // a put has no pack or copy of its own
				out = append(out, Curve{s, op, m})
			}
		}
	}
	return out
}

// Key names the curve: CurveKey of its suite, operation and method.
func (c Curve) Key() string { return CurveKey(c.Suite.Name, Ops[c.Op].Name, c.Method) }

// CurveKey names the curve of operation op in suite: suite/op, then
// /method for a typed suite's.
func CurveKey(suite, op, method string) string {
	if method != "" {
		return suite + "/" + op + "/" + method
	}
	return suite + "/" + op
}

// Refined says whether the curve's lengths are refined.
func (c Curve) Refined() bool { return c.Suite.Refine && c.Suite.Vary == VaryLength }

// Budget is the most lengths of a refined curve: Points, or twice the
// grid.
func (c Curve) Budget() int {
	if c.Suite.Points > 0 {
		return c.Suite.Points
	}
	return 2 * len(c.Suite.Lengths.Lengths(c.Elem()))
}

// Grid is the curve's points before refinement, ascending in the varied
// parameter: those the plan keeps (LeftOut).
func (c Curve) Grid() []Point {
	var out []Point
	for _, p := range c.fullGrid() {
		if c.Suite.leaveOut(p) == inPlan {
			out = append(out, p)
		}
	}
	return out
}

// Left counts the points of a curve's grid the plan leaves out.
type Left struct {
	Buffer int // above max-buffer
	Budget int // one call predicted longer than the budget
	Type   int // a datatype that passes what MPI's ints hold on the point's processes
	Count  int // a length above 2^31−1 bytes for an operation that passes it as an int
}

// LeftOut counts the points of the curve's grid the plan leaves out.
func (c Curve) LeftOut() Left {
	var l Left
	for _, p := range c.fullGrid() {
		switch c.Suite.leaveOut(p) {
		case overCap:
			l.Buffer++
		case overTime:
			l.Budget++
		case overInt:
			l.Type++
		case overCount:
			l.Count++
		}
	}
	return l
}

// fullGrid is the curve's grid without the cap.
func (c Curve) fullGrid() []Point {
	s, o := c.Suite, Ops[c.Op]
	base := c.At(s.Len)
	var out []Point
	switch s.Vary {
	case VaryLength:
		for _, l := range s.Lengths.Lengths(c.Elem()) {
			p := base
			p.Len = l
			out = append(out, p)
		}
	case VaryProcs:
		for _, n := range s.Procs {
			p := base
			p.Procs = n
			if n >= o.MinProcs() {
				out = append(out, c.fix(p))
			}
		}
	case VaryChunks:
		for _, k := range s.Chunks {
			p := base
			p.Chunks = k
			out = append(out, p)
		}
	default:
		out = append(out, base)
	}
	return out
}

// At is the curve's point at length l (the fixed parameters of the
// suite).
func (c Curve) At(l int64) Point {
	s := c.Suite
	return c.fix(Point{Suite: s.Name, Op: c.Op, Pair: s.Pair, Procs: s.Procs[0], Chunks: s.Chunks[0], Len: l, Method: c.Method})
}

// Elem is the step of the curve's lengths where they vary (the suite
// has one process count then).
func (c Curve) Elem() int64 { return c.Suite.elem(c.Op, c.At(c.Suite.Len).Procs) }

// fix sets what the operation's pattern fixes: a pair of processes for
// ping-pong, one for simple; no pair, chunks or length where the
// operation has none.
func (c Curve) fix(p Point) Point {
	o := Ops[c.Op]
	switch {
	case o.OnPair():
		p.Procs = 2
	case o.Pattern == Simple:
		p.Procs = 1
	}
	if !o.OnPair() {
		p.Pair = ""
	}
	if o.Vary&VaryChunks == 0 { // master-worker's work items, partitioned's partitions
		p.Chunks = 0
	}
	if e := c.Suite.elem(c.Op, p.Procs); o.Vary&VaryLength == 0 {
		p.Len = 0
	} else if p.Len > 0 || e > 1 {
		p.Len = max(e, (p.Len+e-1)/e*e)
	}
	return p
}

// Names of Vary values in suite files.
var varyNames = map[Vary]string{VaryLength: "length", VaryProcs: "procs", VaryChunks: "chunks", VaryNone: "none"}

func (v Vary) String() string {
	if s, ok := varyNames[v]; ok {
		return s
	}
	return fmt.Sprintf("Vary(%d)", int(v))
}

// A suiteField is one field of a suite: its name in suite files and
// configuration lines, how to set it from text and how to write it. A
// field with a usual value leaves it out of the configuration line, and a
// line without the field has that value: lines written before the field
// existed read back the same.
type suiteField struct {
	name  string
	set   func(s *Setup, v string, n int) error
	get   func(s *Setup) string
	usual string
}

// suiteFields are the fields of a suite, in the order of configuration
// lines (name is the key of the line, not a field of it).
var suiteFields = []suiteField{
	{"ops", setOps, func(s *Setup) string { return opNames(s.Ops) }, ""},
	{"vary", setVary, func(s *Setup) string { return s.Vary.String() }, ""},
	{"lengths", setLengths, func(s *Setup) string { return fmt.Sprintf("%d:%d", s.Lengths.From, s.Lengths.To) }, ""},
	{"step", floatField(func(s *Setup) *float64 { return &s.Lengths.Step }, 1, false), func(s *Setup) string { return fmtFloat(s.Lengths.Step) }, ""},
	{"refine", setRefine, func(s *Setup) string { return strconv.FormatBool(s.Refine) }, ""},
	{"points", intField(func(s *Setup) *int { return &s.Points }, 0, 1<<20), func(s *Setup) string { return strconv.Itoa(s.Points) }, ""},
	{"length", setLen, func(s *Setup) string { return strconv.FormatInt(s.Len, 10) }, ""},
	{"procs-step", setProcsStep, func(s *Setup) string { return fmtFloat(max(1, s.ProcsStep)) }, "1"},
	{"procs", countsField(func(s *Setup) *[]int { return &s.Procs }, "process counts", 0), func(s *Setup) string { return JoinCounts(s.Procs, s.ProcsStep) }, ""},
	{"chunks", countsField(func(s *Setup) *[]int { return &s.Chunks }, "work item counts", MaxChunks), func(s *Setup) string { return JoinCounts(s.Chunks, 1) }, ""},
	{"pair", choiceField(func(s *Setup) *string { return &s.Pair }, PairMax, PairMin), func(s *Setup) string { return s.Pair }, ""},
	{"eps", floatField(func(s *Setup) *float64 { return &s.Rule.Eps }, 0, true), func(s *Setup) string { return fmtFloat(s.Rule.Eps) }, ""},
	{"min-reps", intField(func(s *Setup) *int { return &s.Rule.Min }, 1, MaxReps), func(s *Setup) string { return strconv.Itoa(s.Rule.Min) }, ""},
	{"max-reps", intField(func(s *Setup) *int { return &s.Rule.Max }, 1, MaxReps), func(s *Setup) string { return strconv.Itoa(s.Rule.Max) }, ""},
	{"budget", durationField(func(s *Setup) *float64 { return &s.Rule.Budget }, true), func(s *Setup) string { return DurationText(s.Rule.Budget) }, ""},
	{"time", durationField(func(s *Setup) *float64 { return &s.Time }, false), func(s *Setup) string { return DurationText(s.Time) }, ""},
	{"sync", choiceField(func(s *Setup) *string { return &s.Sync }, SyncWindow, SyncBarrier, SyncNone), func(s *Setup) string { return s.Sync }, ""},
	{"cache", choiceField(func(s *Setup) *string { return &s.Cache }, CacheAuto, CacheCold, CacheWarm), func(s *Setup) string { return s.Cache }, ""},
	{"warmup", intField(func(s *Setup) *int { return &s.Warmup }, 0, MaxReps), func(s *Setup) string { return strconv.Itoa(s.Warmup) }, ""},
	{"calls", setCalls, func(s *Setup) string {
		if s.Calls == 0 {
			return CallsAuto
		}
		return strconv.Itoa(s.Calls)
	}, CallsAuto},
	{"timer", choiceField(func(s *Setup) *string { return &s.Timer }, TimerSubtract, TimerKeep), func(s *Setup) string {
		if s.Timer == "" {
			return TimerSubtract
		}
		return s.Timer
	}, TimerSubtract},
	wordOrBytes("span", func(s *Setup) *int64 { return &s.Span }, SpanAll, "2Mi"),
	wordOrBytes("max-buffer", func(s *Setup) *int64 { return &s.MaxBuffer }, NoCap, "64Mi"),
	{"send-type", setType(func(s *Setup) **Type { return &s.SendType }, TypeBytes), getType(func(s *Setup) **Type { return &s.SendType }, TypeBytes), TypeBytes},
	{"recv-type", setType(func(s *Setup) **Type { return &s.RecvType }, TypeSame), getType(func(s *Setup) **Type { return &s.RecvType }, TypeSame), TypeSame},
	{"methods", setMethods, getMethods, "all"},
	{"rma-sync", choiceField(func(s *Setup) *string { return &s.RMASync }, RMASyncs...), func(s *Setup) string { return s.RMASync }, RMAFence},
	{"rma-window", choiceField(func(s *Setup) *string { return &s.Window }, WindowAllocate, WindowCreate), func(s *Setup) string { return s.Window }, WindowAllocate},
	{"rma-assert", choiceField(func(s *Setup) *string { return &s.Assert }, AssertNone, AssertNoCheck), func(s *Setup) string { return s.Assert }, AssertNone},
	{"topology", choiceField(func(s *Setup) *string { return &s.Topology }, Topologies...), func(s *Setup) string { return s.Topology }, TopologyDefault},
}

// wordOrBytes is a field that holds a length of at least 64 bytes (one
// slot of a cache line), or word for none (stored as 0, its usual value).
func wordOrBytes(name string, p func(*Setup) *int64, word, example string) suiteField {
	set := func(s *Setup, v string, _ int) error {
		if v == word {
			*p(s) = 0
			return nil
		}
		x, err := ParseBytes(v)
		if err != nil || x < 64 {
			return fmt.Errorf("%q: want %s or a length of at least 64 bytes (e.g. %s)", v, word, example)
		}
		*p(s) = x
		return nil
	}
	get := func(s *Setup) string {
		if *p(s) == 0 {
			return word
		}
		return strconv.FormatInt(*p(s), 10)
	}
	return suiteField{name, set, get, word}
}

// NoCap is the max-buffer of a suite whose buffers are not capped.
const NoCap = "none"

// setProcsStep reads the factor between the process counts of a range:
// 1 (every count) or more.
func setProcsStep(s *Setup, v string, _ int) error {
	x, err := strconv.ParseFloat(v, 64)
	if err != nil || !(x >= 1 && x <= 1e6) {
		return fmt.Errorf("%q: want 1 (every count) or a factor above 1 (e.g. 2)", v)
	}
	s.ProcsStep = x
	return nil
}

// SpanAll is the span of a cold cache that cycles over the whole buffers.
const SpanAll = "all"

// setCalls reads the calls per repetition: auto, or a whole number from 1
// to MaxCalls.
func setCalls(s *Setup, v string, _ int) error {
	if v == CallsAuto {
		s.Calls = 0
		return nil
	}
	x, err := strconv.Atoi(v)
	if err != nil || x < 1 || x > MaxCalls {
		return fmt.Errorf("%q: want auto or a whole number from 1 to %d", v, MaxCalls)
	}
	s.Calls = x
	return nil
}

// MaxChunks is the most work items of a master-worker repetition
// (SKAMPI_MAXCHUNKS of the C side; its loops' tests check it).
const MaxChunks = 30000

// SuiteFieldNames are the fields a suite file may give, in order.
func SuiteFieldNames() []string {
	out := []string{"name"}
	for _, f := range suiteFields {
		out = append(out, f.name)
	}
	return out
}

func findField(name string) *suiteField {
	for i := range suiteFields {
		if suiteFields[i].name == name {
			return &suiteFields[i]
		}
	}
	return nil
}

// ConfigLine is the suite's configuration line: the key
// skampi-suite-<name> and every field as field=value, space-separated.
func (s *Setup) ConfigLine() (key, value string) {
	var parts []string
	for _, f := range suiteFields {
		if v := f.get(s); f.usual == "" || v != f.usual {
			parts = append(parts, f.name+"="+v)
		}
	}
	return KeySuite + s.Name, strings.Join(parts, " ")
}

// ParseSuiteLine reads a configuration line of a suite back (its key
// without or with the prefix skampi-suite-).
func ParseSuiteLine(key, value string) (*Setup, error) {
	s := &Setup{Name: strings.TrimPrefix(key, KeySuite)}
	if err := checkName(s.Name); err != nil {
		return nil, fmt.Errorf("%s: suite name %v", key, err)
	}
	seen := map[string]bool{}
	for _, kv := range strings.Fields(value) {
		k, v, _ := strings.Cut(kv, "=")
		f := findField(k)
		if f == nil {
			return nil, fmt.Errorf("%s: unknown field %q", key, k)
		}
		if seen[k] {
			return nil, fmt.Errorf("%s: %s again", key, k)
		}
		if err := f.set(s, v, 1<<30); err != nil {
			return nil, fmt.Errorf("%s: %s: %v", key, k, err)
		}
		seen[k] = true
	}
	for _, f := range suiteFields {
		switch {
		case seen[f.name]:
		case f.usual != "":
			if err := f.set(s, f.usual, 1<<30); err != nil {
				return nil, fmt.Errorf("%s: %s: %v", key, f.name, err)
			}
		default:
			return nil, fmt.Errorf("%s: no field %s", key, f.name)
		}
	}
	return s, nil
}

var suiteName = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]*[a-z][a-z0-9]*)*$`)

// checkName accepts lowercase words joined by single hyphens, the last
// not all digits (go test reads a trailing -<digits> as GOMAXPROCS).
func checkName(name string) error {
	if !suiteName.MatchString(name) {
		return fmt.Errorf("%q: want lowercase letters and digits in words joined by -, starting with a letter, not ending in -<digits>", name)
	}
	return nil
}

func setOps(s *Setup, v string, _ int) error {
	ops, err := ParseOps(v)
	s.Ops = ops
	return err
}

func setVary(s *Setup, v string, _ int) error {
	for k, name := range varyNames {
		if v == name {
			s.Vary = k
			return nil
		}
	}
	return fmt.Errorf("%q: want length, procs, chunks or none", v)
}

func setLengths(s *Setup, v string, _ int) error {
	r, err := ParseRange(v, 2)
	s.Lengths.From, s.Lengths.To = r.From, r.To
	return err
}

func setRefine(s *Setup, v string, _ int) error {
	b, err := strconv.ParseBool(v)
	if err != nil {
		return fmt.Errorf("%q: want true or false", v)
	}
	s.Refine = b
	return nil
}

func setLen(s *Setup, v string, _ int) error {
	l, err := ParseBytes(v)
	s.Len = l
	return err
}

func floatField(p func(*Setup) *float64, above float64, belowOne bool) func(*Setup, string, int) error {
	return func(s *Setup, v string, _ int) error {
		x, err := strconv.ParseFloat(v, 64)
		switch {
		case err != nil || x != x:
			return fmt.Errorf("%q: want a number", v)
		case belowOne && !(x > above && x < 1):
			return fmt.Errorf("%v: want a relative error between 0 and 1 (e.g. 0.03)", v)
		case !belowOne && !(x > above) || x > 1e6:
			return fmt.Errorf("%v: want a factor above %v (e.g. 2 or 1.4142)", v, above)
		}
		*p(s) = x
		return nil
	}
}

// MaxReps is the most repetitions (and warm-up calls) a point may ask
// for: a C int, with room.
const MaxReps = 1 << 30

func intField(p func(*Setup) *int, lo, hi int) func(*Setup, string, int) error {
	return func(s *Setup, v string, _ int) error {
		x, err := strconv.Atoi(v)
		if err != nil || x < lo || x > hi {
			return fmt.Errorf("%q: want a whole number from %d to %d", v, lo, hi)
		}
		*p(s) = x
		return nil
	}
}

// countsField parses a list of counts from 1 to hi, or to the job's
// processes n where hi is 0.
func countsField(p func(*Setup) *[]int, what string, hi int) func(*Setup, string, int) error {
	return func(s *Setup, v string, n int) error {
		top, step := n, max(1, s.ProcsStep)
		if hi > 0 {
			top, step = hi, 1
		}
		c, err := ParseCounts(v, 1, top, step)
		if err != nil && hi == 0 {
			return fmt.Errorf("%v (the job has %d processes)", err, n)
		}
		if err != nil {
			return fmt.Errorf("%v (%s from 1 to %d)", err, what, top)
		}
		*p(s) = c
		return nil
	}
}

func choiceField(p func(*Setup) *string, choices ...string) func(*Setup, string, int) error {
	return func(s *Setup, v string, _ int) error {
		for _, c := range choices {
			if v == c {
				*p(s) = v
				return nil
			}
		}
		return fmt.Errorf("%q: want %s", v, strings.Join(choices, " or "))
	}
}

func durationField(p func(*Setup) *float64, positive bool) func(*Setup, string, int) error {
	return func(s *Setup, v string, _ int) error {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 || positive && d == 0 {
			return fmt.Errorf("%q: want a duration such as 1s or 50ms", v)
		}
		*p(s) = d.Seconds()
		return nil
	}
}

func fmtFloat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// DurationText writes seconds as a duration such as 1s or 50ms (to the
// microsecond), as suite files give them.
func DurationText(sec float64) string {
	return time.Duration(sec * float64(time.Second)).Round(time.Microsecond).String()
}

func opNames(ops []int) string {
	names := make([]string, len(ops))
	for i, op := range ops {
		names[i] = Ops[op].Name
	}
	return strings.Join(names, ",")
}
