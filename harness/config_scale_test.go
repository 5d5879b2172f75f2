package harness

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestConfigLinesAtAMillion writes the job's configuration lines for a
// synthesized job of 2^20 processes on 16,384 nodes: none grows with p.
func TestConfigLinesAtAMillion(t *testing.T) {
	const p, perNode = 1 << 20, 64
	job := Job{Version: "0.1.0", Library: "synthetic", Thread: "single", ProcsNode: perNode}
	for r := range p {
		job.Hosts = append(job.Hosts, fmt.Sprintf("node%05d", r/perNode+1))
		job.PIDs = append(job.PIDs, 1000+r%perNode)
	}
	var b bytes.Buffer
	writeConfig(&b, &job, nil)
	longest := ""
	for _, l := range strings.Split(b.String(), "\n") {
		if len(l) > len(longest) {
			longest = l
		}
	}
	t.Logf("longest of %d lines: %d bytes: %.100s", strings.Count(b.String(), "\n"), len(longest), longest)
	assert.Less(t, len(longest), 256)
	assert.Contains(t, b.String(), "mpi-hosts: node[00001-16384] (64 each)\n")
	assert.Contains(t, b.String(), "mpi-procs: 1048576\n")
}
