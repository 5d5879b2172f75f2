package results

import (
	"regexp"
	"strconv"
	"strings"
)

// hostPart is one entry of an mpi-hosts line: a host or a hostlist
// expression and its processes ("vm (2)", "n[0001-0064] (64 each)").
var hostPart = regexp.MustCompile(`^(.+?) \((\d{1,9})( each)?\)$`)

// hostsMore is the entry that counts what an mpi-hosts line left out.
var hostsMore = regexp.MustCompile(`^… \d+ more entries \((\d{1,9}) hosts in all\)$`)

// HostsProcs counts the processes an mpi-hosts line gives: the sum over
// its entries; exact is false when the line left entries out (then the
// sum is a lower bound); ok is false for a line it cannot read.
func HostsProcs(line string) (n int64, exact, ok bool) {
	exact = true
	for _, part := range splitTop(line) {
		if hostsMore.MatchString(part) {
			exact = false
			continue
		}
		m := hostPart.FindStringSubmatch(part)
		if m == nil {
			return 0, false, false
		}
		procs, _ := strconv.ParseInt(m[2], 10, 64)
		hosts := int64(1)
		if m[3] != "" {
			if hosts, ok = countHostlist(m[1]); !ok {
				return 0, false, false
			}
		}
		if n += hosts * procs; n > MaxProcs {
			return n, exact, true
		}
	}
	return n, exact, true
}

// HostsCount counts the hosts an mpi-hosts line names (the count it
// gives where it left entries out); ok is false for a line it cannot
// read.
func HostsCount(line string) (n int64, ok bool) {
	for _, part := range splitTop(line) {
		if m := hostsMore.FindStringSubmatch(part); m != nil {
			all, _ := strconv.ParseInt(m[1], 10, 64)
			return all, true
		}
		m := hostPart.FindStringSubmatch(part)
		if m == nil {
			return 0, false
		}
		hosts := int64(1)
		if m[3] != "" {
			if hosts, ok = countHostlist(m[1]); !ok {
				return 0, false
			}
		}
		if n += hosts; n > MaxProcs {
			return n, true
		}
	}
	return n, true
}

// splitTop splits s at ", " outside brackets.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '[':
			depth++
		case s[i] == ']':
			depth--
		case depth == 0 && strings.HasPrefix(s[i:], ", "):
			out = append(out, s[start:i])
			start = i + 2
		}
	}
	return append(out, s[start:])
}

// countHostlist counts the hosts of a hostlist expression
// prefix[a-b,c,… K more].
func countHostlist(e string) (int64, bool) {
	open := strings.IndexByte(e, '[')
	if open < 0 || !strings.HasSuffix(e, "]") {
		return 0, false
	}
	var n int64
	for _, r := range strings.Split(e[open+1:len(e)-1], ",") {
		if k, ok := strings.CutPrefix(r, "… "); ok {
			v, err := strconv.ParseInt(strings.TrimSuffix(k, " more"), 10, 64)
			if err != nil || v < 0 {
				return 0, false
			}
			if n += v; n > MaxProcs {
				return n, true
			}
			continue
		}
		lo, hi, isRange := strings.Cut(r, "-")
		a, err1 := strconv.ParseInt(lo, 10, 64)
		b, err2 := a, error(nil)
		if isRange {
			b, err2 = strconv.ParseInt(hi, 10, 64)
		}
		if err1 != nil || err2 != nil || a < 0 || b < a {
			return 0, false
		}
		if b-a >= MaxProcs { // b-a+1 might not fit
			return MaxProcs + 1, true
		}
		if n += b - a + 1; n > MaxProcs {
			return n, true // more than any file may give: no sum of it can overflow
		}
	}
	return n, true
}
