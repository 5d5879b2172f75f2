package fold

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/beff-suite/beff/internal/results"
	"github.com/beff-suite/beff/suites/beffio"
)

// Reference names the reference code whose output ReadReference reads.
func (*Suite) Reference() string { return "b_eff_io 2.1" }

// Lines of the reference code's protocol (<prefix>.prot) that carry the
// figures: a pattern line starts with its partition, access method and
// type; a type's total follows its patterns; then the access method's
// total, and at the end the partitions' values and b_eff_io.
var (
	refPattern   = regexp.MustCompile(`^n=(\d+)\s+a=([0-2])\s+type=([0-4])\s+p=\s*\d+\s`)
	refType      = regexp.MustCompile(`^\s*total pattern type:.*\sb_eff_io_(write|rewrite|read)_(scatter|shared|separated|segmented|seg_coll)=\s*(\S+) MB/s`)
	refAccess    = regexp.MustCompile(`total access method:.*\sb_eff_io_(write|rewrite|read)=\s*(\S+) MB/s`)
	refPartition = regexp.MustCompile(`^\s*total partition: n=(\d+)\s.*\sb_eff_io=\s*(\S+) MB/s`)
	refBeffIO    = regexp.MustCompile(`^\s*b_eff_io := maximum over all bw_partition =\s*(\S+) MB/s`)
	// the header: memory per process, partitions, scheduled time and
	// total memory
	refMem  = regexp.MustCompile(`^MEMORY_PER_PROCESSOR =\s*(\d+) MBytes`)
	refArgs = regexp.MustCompile(`^-N\s+([\d,]+)\s+T=(\d+), MT=(\d+) MBytes`)
)

// Setup keys of b_eff_io beside the reference code, as beff writes them.
const (
	SetupPartitions = "partitions"
	SetupT          = "T"
	SetupMem        = "memory per process"
	SetupTotalMem   = "total memory"
)

// setup is the b_eff_io setup of partitions, T (s) and memory per
// process and in total (MiB; 0: unknown, left out).
func setup(partitions []int, t float64, mem, total int64) []results.Setting {
	var parts []string
	for _, n := range partitions {
		parts = append(parts, strconv.Itoa(n))
	}
	s := []results.Setting{{Key: SetupPartitions, Value: strings.Join(parts, ",")}, {Key: SetupT, Value: fmt.Sprintf("%g s", t)}}
	if mem > 0 {
		s = append(s, results.Setting{Key: SetupMem, Value: fmt.Sprintf("%d MiB", mem)})
	}
	if total > 0 {
		s = append(s, results.Setting{Key: SetupTotalMem, Value: fmt.Sprintf("%d MiB", total)})
	}
	return s
}

// refSetup reads the setup from a header line of the protocol into *s.
func refSetup(line string, s *[]results.Setting) {
	if m := refMem.FindStringSubmatch(line); m != nil {
		mem, _ := strconv.ParseInt(m[1], 10, 64)
		*s = append(*s, results.Setting{Key: SetupMem, Value: fmt.Sprintf("%d MiB", mem)})
	}
	m := refArgs.FindStringSubmatch(line)
	if m == nil {
		return
	}
	var parts []int
	for _, f := range strings.Split(m[1], ",") {
		n, err := strconv.Atoi(f)
		if err != nil {
			return
		}
		parts = append(parts, n)
	}
	t, _ := strconv.ParseFloat(m[2], 64)
	total, _ := strconv.ParseInt(m[3], 10, 64)
	*s = append(*s, setup(parts, t, 0, total)...)
}

// refTypeNames maps the reference code's type names to beff's.
var refTypeNames = map[string]beffio.PatternType{"scatter": beffio.Scatter, "shared": beffio.Shared,
	"separated": beffio.Separated, "segmented": beffio.Segmented, "seg_coll": beffio.SegColl}

// ReadReference reads the figures of a run of the reference code 2.1 from
// its protocol prefix.prot: b_eff_io, each partition's value, each access
// method's value (the rewrite's: the scatter type's, as the reference code
// rewrites only that type by default) and each pattern-type bandwidth, in
// MB/s; its setup from the protocol's head: partitions, T, memory per
// process and in total. A protocol without the final b_eff_io (a run that
// did not finish) is an error.
func (*Suite) ReadReference(prefix string) (results.Conformance, error) {
	path := prefix + ".prot"
	var figs []refFigure
	n := 0 // the partition of the pattern lines read last
	var final bool
	c := results.Conformance{Setup: results.ReferenceSetup(0)}
	err := results.ScanFile(path, func(line string, k int) error {
		if k <= refHead {
			refSetup(line, &c.Setup)
		}
		var m []string
		num := func(i int) (float64, error) {
			x, err := strconv.ParseFloat(m[i], 64)
			if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
				return 0, fmt.Errorf("%q is not a bandwidth", m[i])
			}
			return x, nil
		}
		var f refFigure
		var err error
		switch {
		case set(&m, refPattern.FindStringSubmatch(line)):
			n, _ = strconv.Atoi(m[1])
			return nil
		case set(&m, refType.FindStringSubmatch(line)) && n > 0:
			a, _ := beffio.ParseAccess(m[1])
			f = typeFig(n, a, refTypeNames[m[2]], 0)
			f.Value, err = num(3)
		case set(&m, refAccess.FindStringSubmatch(line)) && n > 0:
			a, _ := beffio.ParseAccess(m[1])
			f = accessFig(n, a, 0)
			f.Value, err = num(2)
		case set(&m, refPartition.FindStringSubmatch(line)):
			np, _ := strconv.Atoi(m[1])
			f = partitionFig(np, 0)
			f.Value, err = num(2)
		case set(&m, refBeffIO.FindStringSubmatch(line)):
			final = true
			f = beffIOFig(0)
			f.Value, err = num(1)
		default:
			return nil
		}
		figs = append(figs, f)
		return err
	})
	if err != nil {
		return results.Conformance{}, err
	}
	if !final {
		return results.Conformance{}, fmt.Errorf("%s: no final b_eff_io: the reference code's run did not finish", path)
	}
	c.Figures = sorted(figs)
	return c, nil
}

// refHead is the most lines of the protocol's head, which has the setup.
const refHead = 20

// set stores a regexp match in *m and reports whether there was one.
func set(m *[]string, match []string) bool {
	*m = match
	return match != nil
}

// Conformance returns the figures of a folded b_eff_io run that the
// reference code also prints: the 2.1 formula (under both rules), the
// partitions' values by it, the access-method values (the rewrite's: the
// scatter type's) and the pattern-type bandwidths, the reads with the
// removal of the files in their time where it was measured; and its
// setup.
func (*Suite) Conformance(f results.Folded) results.Conformance {
	p := f.(*Folded)
	figs := []refFigure{beffIOFig(p.Reference)}
	for _, part := range p.Partitions {
		figs = append(figs, partitionFig(part.N, part.Reference))
		for _, a := range beffio.Accesses {
			v := part.Access[a]
			switch {
			case a == beffio.Rewrite:
				v = part.Totals[a][beffio.Scatter].MBps
			case a == beffio.Read && p.Removal != RemovalNone:
				v = part.ReadRemovalValue
			}
			figs = append(figs, accessFig(part.N, a, v))
			for _, t := range beffio.Types {
				m := part.Totals[a][t]
				if m == nil {
					continue
				}
				v := m.MBps
				if a == beffio.Read && p.Removal != RemovalNone {
					v = part.ReadRemoval[t]
				}
				figs = append(figs, typeFig(part.N, a, t, v))
			}
		}
	}
	cfg := p.Run.Config
	return results.Conformance{Figures: sorted(figs),
		Setup: append(results.CommonSetup(&cfg.Common), setup(cfg.Partitions, cfg.T, cfg.MemMiB, cfg.TotalMiB)...)}
}

const beffIOFigure = "b_eff_io (2.1 formula)"

// A refFigure is a figure of the comparison with its place in the order:
// b_eff_io, then per partition its value and per access method its value
// and its types.
type refFigure struct {
	results.Figure
	key [4]int
}

func beffIOFig(v float64) refFigure {
	return refFigure{Figure: results.Figure{Name: "beffio", Label: beffIOFigure, Value: v, Unit: "MB/s"}}
}

func partitionFig(n int, v float64) refFigure {
	return refFigure{results.Figure{Name: fmt.Sprintf("partition/n=%d", n), Label: fmt.Sprintf("partition n=%d (2.1 formula)", n),
		Value: v, Unit: "MB/s"}, [4]int{1, n}}
}

func accessFig(n int, a beffio.Access, v float64) refFigure {
	return refFigure{results.Figure{Name: fmt.Sprintf("access/n=%d/acc=%s", n, a), Label: fmt.Sprintf("n=%d %s", n, a),
		Value: v, Unit: "MB/s"}, [4]int{1, n, 1 + int(a)}}
}

func typeFig(n int, a beffio.Access, t beffio.PatternType, v float64) refFigure {
	return refFigure{results.Figure{Name: fmt.Sprintf("type/n=%d/acc=%s/type=%s", n, a, t), Label: fmt.Sprintf("n=%d %s %s", n, a, t),
		Value: v, Unit: "MB/s"}, [4]int{1, n, 1 + int(a), 1 + int(t)}}
}

// sorted returns the figures in comparison order.
func sorted(figs []refFigure) []results.Figure {
	slices.SortStableFunc(figs, func(x, y refFigure) int { return slices.Compare(x.key[:], y.key[:]) })
	out := make([]results.Figure, len(figs))
	for i, f := range figs {
		out[i] = f.Figure
	}
	return out
}

// Round is a round of beff conformance: the reference code with the
// memory per process, the total memory of the processes and the scheduled
// time, its files in the scratch directory, its protocol at the prefix;
// beff with its rules and in reference mode, with the same settings.
func (*Suite) Round(p results.RoundSettings) results.RoundPlan {
	mem, total, t := strconv.FormatInt(p.MemMiB, 10), strconv.FormatInt(p.MemMiB*int64(p.Procs), 10), strconv.Itoa(p.T)
	flags := []string{"-beffio.mem=" + mem, "-beffio.totalmem=" + total, "-beffio.T=" + t, "-beffio.dir=" + p.Dir}
	return results.RoundPlan{
		CFlags: []string{},
		Ref:    []string{"-MB", mem, "-MT", total, "-T", t, "-p", p.Dir, "-f", p.Prefix},
		Variants: []results.Variant{
			{Name: "default", Label: "beff default", Flags: flags},
			{Name: "reference", Label: "beff reference mode", Flags: append(slices.Clone(flags), "-beffio.reference")},
		},
	}
}
