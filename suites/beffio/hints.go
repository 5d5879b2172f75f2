package beffio

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// A HintRule gives MPI-IO hints to the files and patterns it selects. A
// hints file has one rule per line:
//
//	[partition=N|*] [access=write|rewrite|read|*] [type=scatter|…|*] [l=BYTES|*] key=value [key=value …]
//
// Lines starting with # are comments. A rule without l (or l=*) applies
// when the type's file is opened; a rule with l applies, with
// MPI_File_set_info, before each pattern of that disk chunk size.
type HintRule struct {
	Partition int         // 0: any
	Access    string      // "": any
	Type      string      // "": any
	L         int64       // 0: at open
	Hints     [][2]string // key, value in file order
	Line      int
}

// ParseHints reads a hints file.
func ParseHints(r io.Reader, name string) ([]HintRule, error) {
	var rules []HintRule
	sc := bufio.NewScanner(r)
	for ln := 1; sc.Scan(); ln++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		rule := HintRule{Line: ln}
		for _, f := range strings.Fields(line) {
			k, v, ok := strings.Cut(f, "=")
			if !ok || k == "" {
				return nil, fmt.Errorf("%s:%d: %q is not key=value", name, ln, f)
			}
			any := v == "*"
			switch k {
			case "partition":
				if !any {
					n, err := strconv.Atoi(v)
					if err != nil || n < 1 {
						return nil, fmt.Errorf("%s:%d: partition=%s: want a number of processes or *", name, ln, v)
					}
					rule.Partition = n
				}
			case "access":
				if _, ok := ParseAccess(v); !ok && !any {
					return nil, fmt.Errorf("%s:%d: access=%s: want write, rewrite, read or *", name, ln, v)
				}
				if !any {
					rule.Access = v
				}
			case "type":
				if _, ok := ParseType(v); !ok && !any {
					return nil, fmt.Errorf("%s:%d: type=%s: want scatter, shared, separated, segmented, segcoll or *", name, ln, v)
				}
				if !any {
					rule.Type = v
				}
			case "l":
				if !any {
					n, err := strconv.ParseInt(v, 10, 64)
					if err != nil || n < 1 {
						return nil, fmt.Errorf("%s:%d: l=%s: want a chunk size in bytes or *", name, ln, v)
					}
					rule.L = n
				}
			default:
				rule.Hints = append(rule.Hints, [2]string{k, v})
			}
		}
		if len(rule.Hints) == 0 {
			return nil, fmt.Errorf("%s:%d: no hint (key=value) on the line", name, ln)
		}
		rules = append(rules, rule)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return rules, nil
}

// CheckHintLimits refuses a hint whose key or value is longer than the
// MPI library takes (MPI_MAX_INFO_KEY, MPI_MAX_INFO_VAL; 0: not known),
// naming the file and line, before the job hands it to MPI_Info_set
// (which fails, or aborts the job, on every rank).
func CheckHintLimits(rules []HintRule, name string, maxKey, maxVal int) error {
	for _, r := range rules {
		for _, kv := range r.Hints {
			switch {
			case maxKey > 0 && len(kv[0]) > maxKey:
				return fmt.Errorf("%s:%d: hint key %.40q… has %d bytes, more than the %d of this MPI library's MPI_MAX_INFO_KEY", name, r.Line, kv[0], len(kv[0]), maxKey)
			case maxVal > 0 && len(kv[1]) > maxVal:
				return fmt.Errorf("%s:%d: the value of hint %s has %d bytes, more than the %d of this MPI library's MPI_MAX_INFO_VAL", name, r.Line, kv[0], len(kv[1]), maxVal)
			}
		}
	}
	return nil
}

// SelectHints returns the hints of the rules matching a partition, access
// method, type and chunk size (l = 0: the hints given at open); later rules
// override earlier ones.
func SelectHints(rules []HintRule, partition int, acc Access, t PatternType, l int64) map[string]string {
	out := map[string]string{}
	for _, r := range rules {
		if (r.Partition == 0 || r.Partition == partition) && (r.Access == "" || r.Access == acc.String()) &&
			(r.Type == "" || r.Type == t.String()) && r.L == l {
			for _, kv := range r.Hints {
				out[kv[0]] = kv[1]
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// FormatHints prints hints as "k=v, k=v" in key order.
func FormatHints(h []string) string {
	sort.Strings(h)
	return strings.Join(h, ", ")
}
