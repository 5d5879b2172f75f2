// Package driver runs the links suite under the harness: its flags and
// settings (setup, decided on rank 0), its configuration lines and the
// body of BenchmarkLinks, which measures every pair of members (nodes, or
// processes) in rounds of disjoint pairs through its package loops.
package driver

import (
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/beff-suite/beff/harness"
	"github.com/beff-suite/beff/suites/links"
)

// flags are the suite's flags, on the flag set the binary's main owns
// (New puts them there).
type flags struct {
	fs       *flag.FlagSet
	level    *string
	latReps  *int
	len      *int64
	reps     *int
	cap      *time.Duration
	matrix   *string
	serial   *bool
	multi    *string
	watchdog *time.Duration
}

func newFlags(fs *flag.FlagSet) *flags {
	d := links.DefaultSettings
	return &flags{fs: fs,
		level:    fs.String("links.level", "auto", "links: the members whose every pair is measured: nodes (each node's first process), procs (every process) or auto (nodes, or procs on a job of one node)"),
		latReps:  fs.Int("links.lat-reps", d.LatReps, "links: ping-pongs of 8 bytes of a pair's latency"),
		len:      fs.Int64("links.len", d.BwLen, "links: bytes of a bandwidth message"),
		reps:     fs.Int("links.reps", d.BwReps, "links: messages each way of a pair's bandwidth"),
		cap:      fs.Duration("links.cap", time.Duration(d.Cap*float64(time.Second)), "links: the most one measurement of a pair may take; it stops early with what it measured"),
		matrix:   fs.String("links.matrix", "auto", "links: full (a line per pair), members (a line per member: its median, its slowest link) or auto (full up to 1024 members)"),
		serial:   fs.Bool("links.serial", false, "links: a round's pairs take turns, the others waiting asleep (no pair shares the network or a node's cores; the time grows with the pairs, p²/2 measurements one after the other)"),
		multi:    fs.String("links.multi", "auto", "links: multi-pair (osu_mbw_mr's figure): auto (at the level of nodes, 1, 2, 4, … processes of each node paired with as many of another at once, up to the processes of the node with fewest) or off"),
		watchdog: harness.WatchdogFlag(fs, "links", "links"),
	}
}

// A Driver is the links suite under the harness: its flags, on the flag
// set the binary's main owns, and the handle of the settings rank 0
// decides (setup), which the benchmark body reads.
type Driver struct {
	*harness.Driver
	f        *flags
	settings harness.Settings[Settings]
}

// New puts the suite's flags on fs and returns its driver, for
// harness.Main.
func New(fs *flag.FlagSet) *Driver {
	d := &Driver{f: newFlags(fs)}
	d.Driver, d.settings = harness.NewDriver(harness.Suite[Settings]{ID: links.ID, Setup: d.f.setup, CheckFlags: d.f.checkFlags, Config: config})
	return d
}

// Settings are what rank 0 decides and broadcasts.
type Settings struct {
	Level   string
	Members int // nodes, or processes
	Idle    int // processes that measure nothing (a node's others)
	Full    bool
	Meas    links.Settings
	Plan    links.Plan
}

// flagRanges are what the suite's numeric flags accept.
var flagRanges = []harness.FlagRange{
	{Flag: "links.lat-reps", Min: 1, Max: 1 << 20},
	{Flag: "links.len", Min: 1, Max: math.MaxInt32, Unit: "bytes"},
	{Flag: "links.reps", Min: 1, Max: 1 << 20},
	{Flag: "links.cap", Min: 1e-4, Max: 3600, Unit: "s"},
	harness.WatchdogRange("links.watchdog"),
}

// checkFlags checks what of the flags needs no job.
func (f *flags) checkFlags() error {
	if err := harness.CheckRanges(f.fs, flagRanges...); err != nil {
		return err
	}
	switch *f.level {
	case "auto", links.LevelNodes, links.LevelProcs:
	default:
		return fmt.Errorf("-links.level=%s: want nodes, procs or auto", *f.level)
	}
	switch *f.multi {
	case "auto", links.MultiOff:
	default:
		return fmt.Errorf("-links.multi=%s: want auto or off", *f.multi)
	}
	switch *f.matrix {
	case "auto", links.MatrixFull, links.MatrixMembers:
		return nil
	}
	return fmt.Errorf("-links.matrix=%s: want full, members or auto", *f.matrix)
}

// setup checks the flags on rank 0 and decides the settings.
func (f *flags) setup(job *harness.Job) (Settings, error) {
	if err := f.checkFlags(); err != nil {
		return Settings{}, err
	}
	st := Settings{Level: *f.level, Meas: links.Settings{LatReps: *f.latReps, BwLen: *f.len, BwReps: *f.reps, Cap: f.cap.Seconds(), Serial: *f.serial}}
	if err := st.Meas.Check(); err != nil {
		return Settings{}, err
	}
	n := countMembers(memberRanks(job.Hosts, links.LevelNodes))
	if st.Level == "auto" {
		st.Level = links.LevelNodes
		if n < 2 {
			st.Level = links.LevelProcs // one node: its processes' links
		}
	}
	if st.Level == links.LevelProcs {
		n = job.Procs()
	}
	st.Members, st.Idle = n, job.Procs()-n
	if n < 2 {
		return Settings{}, fmt.Errorf("links on %d %s: a link needs two; run on at least 2 nodes, or give -links.level=procs", n, st.Level)
	}
	if st.Level == links.LevelNodes && *f.multi == "auto" {
		st.Meas.MultiKs = links.MultiKs(fewestPerHost(job.Hosts))
	}
	st.Plan = links.NewPlan(n, st.Meas)
	st.Full = *f.matrix == links.MatrixFull || *f.matrix == "auto" && st.Plan.Full
	return st, nil
}

// fewestPerHost is the processes of the host that has fewest.
func fewestPerHost(hosts []string) int {
	count := map[string]int{}
	for _, h := range hosts {
		count[h]++
	}
	least := 0
	for _, c := range count {
		if least == 0 || c < least {
			least = c
		}
	}
	return least
}

// countMembers is the number of members among a job's ranks.
func countMembers(m []int) int {
	n := 0
	for _, x := range m {
		if x >= 0 {
			n++
		}
	}
	return n
}

// memberRanks is every rank's member number, −1 for a rank that
// measures nothing: at the level of nodes the first rank of each host, in
// the order of the hosts' first ranks (member 0 is rank 0); at the level
// of processes every rank.
func memberRanks(hosts []string, level string) []int {
	out := make([]int, len(hosts))
	seen := map[string]bool{}
	n := 0
	for r, h := range hosts {
		out[r] = -1
		if level == links.LevelProcs || !seen[h] {
			out[r] = n
			n++
		}
		seen[h] = true
	}
	return out
}

// config is the configuration lines of the settings.
func config(job *harness.Job, st Settings) []string {
	matrix := links.MatrixMembers
	if st.Full {
		matrix = links.MatrixFull
	}
	line := func(k, v string) string { return k + ": " + v }
	pairs := links.PairsAtOnce
	if st.Meas.Serial {
		pairs = links.PairsSerial
	}
	return []string{
		line(links.KeyLevel, st.Level),
		line(links.KeyMembers, strconv.Itoa(st.Members)),
		line(links.KeyIdle, strconv.Itoa(st.Idle)),
		line(links.KeyLatReps, strconv.Itoa(st.Meas.LatReps)),
		line(links.KeyLen, strconv.FormatInt(st.Meas.BwLen, 10)),
		line(links.KeyReps, strconv.Itoa(st.Meas.BwReps)),
		line(links.KeyCap, strconv.FormatFloat(st.Meas.Cap, 'g', -1, 64)),
		line(links.KeyRounds, strconv.Itoa(st.Plan.Rounds)),
		line(links.KeyPlan, strings.TrimSuffix(strconv.FormatFloat(math.Ceil(st.Plan.Seconds), 'f', 0, 64), ".")),
		line(links.KeyMatrix, matrix),
		line(links.KeyPairs, pairs),
		line(links.KeyMultiK, links.FormatKs(st.Meas.MultiKs)),
	}
}
