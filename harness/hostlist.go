package harness

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Bounds of the host summary line (mpi-hosts).
const (
	listHosts    = 16   // up to this many hosts are named one by one, "a (2), b (2)"
	hostLineMost = 4096 // bytes of the line; the rest is counted
)

// hostSummary condenses per-rank host names into a line that does not grow
// with the job: up to listHosts hosts one by one with their processes,
// "a (2), b (2)"; more as hostlist expressions of the hosts that run the
// same number of processes, "n[0001-1024] (64 each)", with at most
// hostLineMost bytes, the rest counted.
func hostSummary(hosts []string) string {
	count := map[string]int{}
	for _, h := range hosts {
		count[h]++
	}
	names := make([]string, 0, len(count))
	for h := range count {
		names = append(names, h)
	}
	sort.Strings(names)
	if len(names) <= listHosts {
		parts := make([]string, len(names))
		for i, h := range names {
			parts[i] = fmt.Sprintf("%s (%d)", h, count[h])
		}
		return strings.Join(parts, ", ")
	}
	byCount := map[int][]string{}
	for _, h := range names {
		byCount[count[h]] = append(byCount[count[h]], h)
	}
	var parts []string
	for c, hs := range byCount {
		for _, e := range hostlist(hs) {
			each := ""
			if strings.Contains(e, "[") {
				each = " each"
			}
			parts = append(parts, fmt.Sprintf("%s (%d%s)", e, c, each))
		}
	}
	sort.Strings(parts)
	return boundLine(parts, len(names))
}

// boundLine joins parts up to hostLineMost bytes and counts what is left.
func boundLine(parts []string, hosts int) string { return boundTo(parts, hosts, hostLineMost) }

// boundTo joins parts up to most bytes and counts what is left.
func boundTo(parts []string, hosts, most int) string {
	var b strings.Builder
	for i, p := range parts {
		if b.Len()+len(p)+2 > most-64 {
			fmt.Fprintf(&b, ", … %d more entries (%d hosts in all)", len(parts)-i, hosts)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(p)
	}
	return b.String()
}

var numbered = regexp.MustCompile(`^(.*?)(\d+)$`)

// hostlist writes sorted host names as hostlist expressions: names of one
// prefix and as many digits after it, with runs of numbers as ranges,
// "n[0001-0064,0100]" (past hostLineMost/2 bytes of ranges the rest are
// counted, "n[0001,0003,… 7800 more]"); the others as they are.
func hostlist(names []string) []string {
	type key struct {
		prefix string
		width  int
	}
	nums := map[key][]int{}
	var out []string
	for _, h := range names {
		m := numbered.FindStringSubmatch(h)
		if m == nil || len(m[2]) > 9 {
			out = append(out, h)
			continue
		}
		n, _ := strconv.Atoi(m[2])
		k := key{m[1], len(m[2])}
		nums[k] = append(nums[k], n)
	}
	for k, ns := range nums {
		slices.Sort(ns)
		if len(ns) == 1 {
			out = append(out, fmt.Sprintf("%s%0*d", k.prefix, k.width, ns[0]))
			continue
		}
		var runs []string
		size := 0
		for i := 0; i < len(ns); {
			if size > hostLineMost/2 {
				runs = append(runs, fmt.Sprintf("… %d more", len(ns)-i))
				break
			}
			j := i
			for j+1 < len(ns) && ns[j+1] == ns[j]+1 {
				j++
			}
			r := fmt.Sprintf("%0*d", k.width, ns[i])
			if j > i {
				r += fmt.Sprintf("-%0*d", k.width, ns[j])
			}
			runs = append(runs, r)
			size += len(r) + 1
			i = j + 1
		}
		out = append(out, fmt.Sprintf("%s[%s]", k.prefix, strings.Join(runs, ",")))
	}
	sort.Strings(out)
	return out
}
