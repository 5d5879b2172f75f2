package beffio

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

const mountinfo = `22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw
26 22 0:25 / /run rw,nosuid - tmpfs tmpfs rw
142 26 0:44 / /run/beff-cluster/f1/fs/n0/mnt rw,relatime - fuse.glusterfs 10.77.0.3:/beff rw,user_id=0
150 26 0:50 / /run/beff-cluster/f1/fs/mnt rw,relatime - fuse.glusterfs 10.77.0.3:/beff rw,user_id=0
151 22 0:51 / /mnt/with\040space rw - nfs4 srv:/export\040x rw
garbage line
`

func TestMountOf(t *testing.T) {
	for _, c := range []struct {
		path string
		want Mount
	}{
		{"/run/beff-cluster/f1/fs/mnt/beffio-1", Mount{"/run/beff-cluster/f1/fs/mnt", "fuse.glusterfs", "10.77.0.3:/beff"}},
		{"/run/beff-cluster/f1/fs/mntx", Mount{"/run", "tmpfs", "tmpfs"}},
		{"/tmp", Mount{"/", "ext4", "/dev/vda"}},
		{"/mnt/with space/d", Mount{"/mnt/with space", "nfs4", "srv:/export x"}},
	} {
		m, ok := MountOf([]byte(mountinfo), c.path)
		assert.True(t, ok, c.path)
		assert.Equal(t, c.want, m, c.path)
	}
	_, ok := MountOf([]byte("nothing here\n"), "/x")
	assert.False(t, ok)
}

func TestGlusterServers(t *testing.T) {
	info := "((<DISTRIBUTE:beff-dht> <POSIX(/var/tmp/b/n2):n2:/var/tmp/b/n2/> <POSIX(/var/tmp/b/n1):n1:/var/tmp/b/n1/> <POSIX(/x):n2:/x/>) (beff-dht-layout (beff-client-1 0 1)))"
	assert.Equal(t, []string{"n1", "n2"}, GlusterServers(info))
	assert.Empty(t, GlusterServers("(<REPLICATE:x>)"))
	assert.Equal(t, "fuse.glusterfs 10.77.0.3:/beff, servers n1, n2", FSLine(Mount{Type: "fuse.glusterfs", Source: "10.77.0.3:/beff"}, []string{"n1", "n2"}))
	assert.Equal(t, "ext4 /dev/vda", FSLine(Mount{Type: "ext4", Source: "/dev/vda"}, nil))
}
