package harness

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"

	"github.com/beff-suite/beff/internal/machine"
)

// kindLen bounds the bytes of one machine description that rank 0
// gathers from the node that represents its kind.
const kindLen = 16 << 10

// machineKinds are the kinds of node of a job: the machines of the first
// machine.MaxKinds, and how many there are.
type machineKinds struct {
	described []machine.Kind
	all       int
}

// describeMachines gives rank 0 the machine of each kind of node of the
// job (nodes of one machine.Hash are of one kind), rank 0's kind first,
// at most machine.MaxKinds, and the number of kinds; nil and 0 elsewhere.
// Collective: rank 0 names a rank of each kind, those ranks alone send it
// their node's description (no rank sends more than kindLen bytes, rank
// 0 receives at most MaxKinds of them).
func describeMachines(s *Session, local machine.Machine, nodes []node) machineKinds {
	reps := Decide(s.World(), func() []int { return kindRanks(nodes) })
	color := -1
	for _, r := range reps {
		if r == s.Rank {
			color = 0
		}
	}
	sub, err := s.World().Comm.Split(color, s.Rank)
	s.Must("MPI_Comm_split", err)
	if color < 0 {
		return machineKinds{}
	}
	defer sub.Free()
	in := make([]byte, kindLen)
	if b, err := json.Marshal(local); err == nil && len(b) <= kindLen {
		copy(in, b)
	}
	var all []byte
	if s.IsRoot() {
		all = make([]byte, kindLen*len(reps))
	}
	s.Must("gathering the machines", sub.GatherBytes(in, all, 0))
	if !s.IsRoot() {
		return machineKinds{}
	}
	kinds := make([]machine.Kind, len(reps))
	for i, r := range reps {
		json.Unmarshal(bytes.TrimRight(all[i*kindLen:(i+1)*kindLen], "\x00"), &kinds[i].Machine)
		kinds[i].Hosts = kindHosts(hostsOfKind(nodes, nodes[r].kind))
	}
	return machineKinds{kinds, countKinds(nodes)}
}

// kindRanks names, for each kind of node in the order of the ranks (rank
// 0's first), its first rank: at most machine.MaxKinds.
func kindRanks(nodes []node) []int {
	var reps []int
	seen := map[uint64]bool{}
	for r, n := range nodes {
		if !seen[n.kind] && len(reps) < machine.MaxKinds {
			seen[n.kind] = true
			reps = append(reps, r)
		}
	}
	return reps
}

// countKinds counts the kinds of node.
func countKinds(nodes []node) int {
	seen := map[uint64]bool{}
	for _, n := range nodes {
		seen[n.kind] = true
	}
	return len(seen)
}

// hostsOfKind are the hosts of the ranks on nodes of kind k, one entry per
// rank (as hostSummary counts them).
func hostsOfKind(nodes []node, k uint64) []string {
	var hosts []string
	for _, n := range nodes {
		if n.kind == k {
			hosts = append(hosts, n.host)
		}
	}
	return hosts
}

// kindHostsLen bounds the hosts named for a kind of node (the record
// names at most machine.MaxKinds kinds).
const kindHostsLen = 200

// kindHosts names the hosts of a kind of node: each up to listHosts of
// them, else as hostlist expressions, at most kindHostsLen bytes, the rest
// counted.
func kindHosts(hosts []string) string {
	names := slices.Compact(slices.Sorted(slices.Values(hosts)))
	parts := names
	if len(names) > listHosts {
		parts = hostlist(names)
	}
	room := kindHostsLen - 64 - 2             // what boundTo lets a part have
	if first := parts[0]; len(first) > room { // one hostlist expression longer than the line
		all := fmt.Sprintf("… (%d hosts in all)", len(names))
		parts = []string{strings.ToValidUTF8(first[:room-len(all)], "") + all}
	}
	return boundTo(parts, len(names), kindHostsLen)
}

// localMachine describes this process's node.
func localMachine() machine.Machine { return machine.Describe("/", runtime.GOARCH) }

// mpiSettings is the mpi-env line of this process's environment.
func mpiSettings() string { return machine.MPISettings(os.Environ()) }
