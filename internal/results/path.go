package results

// Where the path between two processes goes, from their hosts and their
// switches (the topology address without the node; "" when unknown).
const (
	PathNode    = "node"    // one host: shared memory
	PathSwitch  = "switch"  // hosts on one switch
	PathSpine   = "spine"   // hosts on different switches
	PathNetwork = "network" // different hosts, switches unknown
)

// Paths are the path classes in the order the protocols list them.
var Paths = []string{PathNode, PathSwitch, PathSpine, PathNetwork}

// Path says where the path between a process on hostA under switch swA
// and one on hostB under swB goes.
func Path(hostA, swA, hostB, swB string) string {
	switch {
	case hostA == hostB:
		return PathNode
	case swA == "" || swB == "":
		return PathNetwork
	case swA == swB:
		return PathSwitch
	}
	return PathSpine
}

// SwitchOf is the switch of a topology address ("spine.leaf0.n3":
// "spine.leaf0"; "" when the address names no switch).
func SwitchOf(addr string) string {
	for i := len(addr) - 1; i > 0; i-- {
		if addr[i] == '.' {
			return addr[:i]
		}
	}
	return ""
}
