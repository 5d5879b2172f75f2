package links

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/beff-suite/beff/internal/results"
)

// Multi-pair: k processes of a node, each paired with the process of the
// same place on another node, all measuring at once (osu_mbw_mr's
// figure): does the node's aggregate bandwidth and message rate grow
// with k (a second adapter, more injection)? The nodes pair as in the
// round robin's first round (node i with Partner(n, 0, i); an odd node
// out). For each k of MultiKs every node pair measures four times, each
// within the cap: bandwidth one way and both ways (windows of
// MultiWindow messages of the bandwidth's length), the message rate one
// way and both ways (windows of MultiRateWindow messages of LatLen
// bytes).

// MultiRateWindow is the messages of a window of the message rate
// (osu_mbw_mr's 64).
const MultiRateWindow = 64

// multiWindowBytes bounds a bandwidth window: a receiving process holds
// one window.
const multiWindowBytes = 4 << 20

// PerMulti is the measurements of a node pair at one k.
const PerMulti = 4

// MultiWindow is the messages of a bandwidth window of n-byte messages:
// as many as fit 4 MiB, 1 to MultiRateWindow.
func MultiWindow(n int64) int {
	return int(min(MultiRateWindow, max(1, multiWindowBytes/max(n, 1))))
}

// MultiKs are the process counts per node measured: 1, 2, 4, … up to
// ppn, and ppn (the processes of the node that has fewest).
func MultiKs(ppn int) []int {
	var out []int
	for k := 1; k < ppn; k *= 2 {
		out = append(out, k)
	}
	if ppn >= 1 {
		out = append(out, ppn)
	}
	return out
}

// MultiSeconds is the most the multi-pair measurements take: per k four
// caps and a sync, for each node pair in turn when serial.
func MultiSeconds(ks []int, members int, s Settings) float64 {
	per := PerMulti * (s.Cap + PairSync)
	if s.Serial {
		per *= float64(members / 2)
	}
	return float64(len(ks)) * per
}

// FormatKs writes ks for the configuration, "1,2,4"; none: "off".
func FormatKs(ks []int) string {
	if len(ks) == 0 {
		return MultiOff
	}
	parts := make([]string, len(ks))
	for i, k := range ks {
		parts[i] = strconv.Itoa(k)
	}
	return strings.Join(parts, ",")
}

// ParseKs reads what FormatKs writes, for a job of procs processes.
func ParseKs(s string, procs int) ([]int, error) {
	if s == MultiOff {
		return nil, nil
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		k, err := strconv.Atoi(f)
		if err != nil || k < 1 || k > procs || len(out) > 0 && k <= out[len(out)-1] || len(out) > 64 {
			return nil, fmt.Errorf("%s: %q: want rising process counts per node, 1 to %d, or %s", KeyMultiK, s, procs, MultiOff)
		}
		out = append(out, k)
	}
	return out, nil
}

// MultiName is the sub-benchmark name of the node pair a < b at k
// processes each: k=<k>/a=<a>/b=<b>.
func MultiName(k, a, b int) string { return fmt.Sprintf("k=%d/%s", k, PairName(a, b)) }

// ParseMulti reads k=<k>/a=<a>/b=<b>.
func ParseMulti(parts []results.Part) (k, a, b int, err error) {
	if len(parts) != 3 || parts[0].Key != "k" {
		return 0, 0, 0, fmt.Errorf("not a multi-pair line (want k=<k>/a=<a>/b=<b>)")
	}
	k, err = strconv.Atoi(parts[0].Value)
	if err != nil || k < 1 {
		return 0, 0, 0, fmt.Errorf("k=%s: not a process count", parts[0].Value)
	}
	a, b, err = ParsePair(parts[1:])
	return k, a, b, err
}
