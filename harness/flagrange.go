package harness

import (
	"flag"
	"fmt"
	"math"
	"strconv"
	"time"
)

// A FlagRange is what a numeric flag accepts: a finite value from Min to Max
// in Unit, or 0 when Zero says what 0 means (e.g. "off", "from the
// job's memory"). Durations are compared in seconds.
type FlagRange struct {
	Flag     string // its name without the dash, e.g. "beffio.T"
	Min, Max float64
	Unit     string // "s", "MiB", "bytes", "GFlop/s", "processes"
	Zero     string // what 0 means; "": 0 is refused unless Min ≤ 0
}

// String says what the flag accepts: "a number of s from 1 to 1e+06, or
// 0 (off)".
func (r FlagRange) String() string {
	s := fmt.Sprintf("a number of %s from %s to %s", r.Unit, num(r.Min), num(r.Max))
	if r.Zero != "" {
		s += ", or 0 (" + r.Zero + ")"
	}
	return s
}

// num writes whole numbers in full, others shortest.
func num(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// Check refuses the flag's value unless it is in the range: with the
// flag's name, its value and the range.
func (r FlagRange) Check(fs *flag.FlagSet) error {
	f := fs.Lookup(r.Flag)
	if f == nil {
		return fmt.Errorf("internal error: no flag -%s", r.Flag)
	}
	v, ok := flagNumber(f.Value)
	switch {
	case !ok:
		return fmt.Errorf("-%s=%s: not a number; want %s", r.Flag, f.Value, r)
	case v == 0 && r.Zero != "":
		return nil
	case math.IsNaN(v) || math.IsInf(v, 0) || v < r.Min || v > r.Max:
		return fmt.Errorf("-%s=%s: out of range; want %s", r.Flag, f.Value, r)
	}
	return nil
}

// flagNumber is the value of a numeric flag (durations in seconds).
func flagNumber(v flag.Value) (float64, bool) {
	g, ok := v.(flag.Getter)
	if !ok {
		return 0, false
	}
	switch x := g.Get().(type) {
	case float64:
		return x, true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case uint:
		return float64(x), true
	case uint64:
		return float64(x), true
	case time.Duration:
		return x.Seconds(), true
	}
	return 0, false
}

// CheckRanges checks the flags of fs in order and returns the first
// refusal.
func CheckRanges(fs *flag.FlagSet, rs ...FlagRange) error {
	for _, r := range rs {
		if err := r.Check(fs); err != nil {
			return err
		}
	}
	return nil
}

// WatchdogRange is what every -<suite>.watchdog flag accepts: up to a
// week.
func WatchdogRange(name string) FlagRange {
	return FlagRange{Flag: name, Min: 1e-3, Max: 7 * 24 * 3600, Unit: "s", Zero: "off"}
}
