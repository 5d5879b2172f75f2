package links

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/beff-suite/beff/internal/results"
)

// The names a links results file uses: the driver writes them, the fold
// reads them back.

// Bench is the benchmark's base name, as benchfmt reports it:
// BenchmarkLinks.
const Bench = "Links"

// ID is every name of the links suite.
var ID = &results.Identity{Key: "links", Name: "links", Bench: Bench, JSONKey: "links", Doc: "docs/links.md",
	Units: units, FoldUnits: []results.Unit{{Name: "us", Better: "lower"}, {Name: "MB/s", Better: "higher"}, {Name: MetricRate, Better: "higher"}}}

// Levels: a member is a node (its first process measures) or a process.
const (
	LevelNodes = "nodes"
	LevelProcs = "procs"
)

// Configuration keys of a links run.
const (
	KeyLevel   = "links-level"      // LevelNodes or LevelProcs
	KeyMembers = "links-members"    // nodes, or processes, measured
	KeyLatReps = "links-lat-reps"   // ping-pongs of a latency
	KeyLen     = "links-len"        // bytes of a bandwidth message
	KeyReps    = "links-reps"       // messages each way of a bandwidth
	KeyCap     = "links-cap-s"      // seconds a measurement may take
	KeyRounds  = "links-rounds"     // rounds of disjoint pairs
	KeyPlan    = "links-plan-s"     // seconds the measurements take at most
	KeyMatrix  = "links-matrix"     // MatrixFull or MatrixMembers
	KeyIdle    = "links-idle-procs" // processes that measured nothing (a node's others)
	KeyPairs   = "links-pairs"      // PairsAtOnce or PairsSerial
	KeyMultiK  = "links-multi-k"    // the multi-pair process counts per node, "1,2,4", or MultiOff
)

// MultiOff is KeyMultiK's value without multi-pair measurements.
const MultiOff = "off"

// Values of KeyPairs: a round's pairs measured at once, or one after the
// other.
const (
	PairsAtOnce = "at-once"
	PairsSerial = "serial"
)

// Values of KeyMatrix: every pair a line, or a line per member.
const (
	MatrixFull    = "full"
	MatrixMembers = "members"
)

// Metrics of a pair's line and of a member's.
const (
	MetricUs         = "us"          // latency: half a ping-pong's round trip, µs
	MetricMBps       = "MB/s"        // the lower member to the higher, 1e6 B/s
	MetricBackMBps   = "back-MB/s"   // the higher member to the lower
	MetricBothMBps   = "both-MB/s"   // both ways at once, the bytes of both directions
	MetricWorstUs    = "worst-us"    // a member's slowest link's latency
	MetricMinMBps    = "min-MB/s"    // a member's slowest link's bandwidth (the lesser way)
	MetricWorstLatTo = "worst-us-to" // the member its slowest link by latency leads to
	MetricMinBwTo    = "min-MB/s-to" // the member its slowest link by bandwidth leads to
	MetricMADUs      = "mad-us"      // the median absolute deviation of its links' latencies
	MetricMADMBps    = "mad-MB/s"    // of its links' bandwidths
	MetricLinks      = "links"       // links a member measured
	MetricRate       = "msg/s"       // multi-pair: messages per second one way, the node pair's
	MetricBothRate   = "both-msg/s"  // both ways at once
)

// units declares the direction of each metric.
var units = []string{MetricUs + " better=lower", MetricBackMBps + " better=higher", MetricBothMBps + " better=higher",
	MetricWorstUs + " better=lower", MetricMinMBps + " better=higher", MetricWorstLatTo + " assume=exact", MetricMinBwTo + " assume=exact",
	MetricMADUs + " assume=exact", MetricMADMBps + " assume=exact", MetricLinks + " assume=exact", MetricRate + " better=higher", MetricBothRate + " better=higher"}

// PairName is the sub-benchmark name of the pair of members a < b:
// a=<a>/b=<b>.
func PairName(a, b int) string { return fmt.Sprintf("a=%d/b=%d", a, b) }

// MemberName is the sub-benchmark name of member i, on host (a node
// level member's node, a process's) under switch sw (its topology
// address without the node, "" when unknown):
// host=<host>[/switch=<sw>]/member=<i>. The member's number ends the
// name, so that a host name that ends in -<digits> does not read as a
// GOMAXPROCS suffix.
func MemberName(host, sw string, i int) string {
	if sw != "" {
		return fmt.Sprintf("host=%s/switch=%s/member=%d", hostPart(host), hostPart(sw), i)
	}
	return fmt.Sprintf("host=%s/member=%d", hostPart(host), i)
}

// hostPart keeps a host name within one element of a name: '/' and
// blanks become '_'.
func hostPart(h string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == ' ' || r == '\t' {
			return '_'
		}
		return r
	}, h)
}

// ParsePair reads a=<a>/b=<b>.
func ParsePair(parts []results.Part) (a, b int, err error) {
	if len(parts) != 2 || parts[0].Key != "a" || parts[1].Key != "b" {
		return 0, 0, fmt.Errorf("not a pair (want a=<a>/b=<b>)")
	}
	a, err1 := strconv.Atoi(parts[0].Value)
	b, err2 := strconv.Atoi(parts[1].Value)
	if err1 != nil || err2 != nil || a < 0 || b <= a {
		return 0, 0, fmt.Errorf("a=%s/b=%s: want two members a < b", parts[0].Value, parts[1].Value)
	}
	return a, b, nil
}
