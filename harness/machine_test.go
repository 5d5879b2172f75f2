package harness

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/beff-suite/beff/internal/machine"
)

func TestKindRanks(t *testing.T) {
	nodes := []node{{host: "n0", kind: 7}, {host: "n0", kind: 7}, {host: "n1", kind: 9}, {host: "n2", kind: 7}, {host: "n3", kind: 9}, {host: "n4", kind: 3}}
	assert.Equal(t, []int{0, 2, 5}, kindRanks(nodes), "the first rank of each kind, rank 0's kind first")
	assert.Equal(t, 3, countKinds(nodes))
	assert.Equal(t, []string{"n1", "n3"}, hostsOfKind(nodes, 9))
	var many []node
	for i := range 100 {
		many = append(many, node{host: fmt.Sprintf("n%d", i), kind: uint64(i)})
	}
	assert.Len(t, kindRanks(many), machine.MaxKinds, "at most MaxKinds described")
	assert.Equal(t, 100, countKinds(many), "all counted")
}

func TestKindHosts(t *testing.T) {
	assert.Equal(t, "a, b", kindHosts([]string{"b", "a", "b"}))
	var hosts []string
	for i := range 1000 {
		hosts = append(hosts, fmt.Sprintf("node%04d", i*2))
	}
	got := kindHosts(hosts)
	assert.LessOrEqual(t, len(got), kindHostsLen+40, got)
	assert.True(t, strings.HasPrefix(got, "node[0000,0002,"), got)
	assert.True(t, strings.HasSuffix(got, "(1000 hosts in all)"), got)
}
