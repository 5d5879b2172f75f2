package machine

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tree writes files (path: content; content "->target" makes a symbolic
// link) under a new root directory.
func tree(t *testing.T, files map[string]string) string {
	root := t.TempDir()
	for p, c := range files {
		full := filepath.Join(root, p)
		require.NoError(t, os.MkdirAll(filepath.Dir(full), 0o755))
		if target, ok := strings.CutPrefix(c, "->"); ok {
			require.NoError(t, os.Symlink(target, full))
			continue
		}
		require.NoError(t, os.WriteFile(full, []byte(c), 0o644))
	}
	return root
}

// cpus adds the topology of CPUs 0..n-1: threads per core, cores per
// socket.
func cpus(files map[string]string, n, threads, cores int) {
	files["sys/devices/system/cpu/online"] = fmt.Sprintf("0-%d\n", n-1)
	for c := range n {
		dir := fmt.Sprintf("sys/devices/system/cpu/cpu%d/topology/", c)
		core := c % (n / threads)
		files[dir+"physical_package_id"] = fmt.Sprintf("%d\n", core/cores)
		files[dir+"core_id"] = fmt.Sprintf("%d\n", core%cores)
	}
}

// nic adds a network interface with its ARP type, state, speed (Mb/s,
// "" none) and driver ("" a virtual one).
func nic(files map[string]string, name, typ, state, speed, driver string) {
	dir := "sys/class/net/" + name + "/"
	files[dir+"type"], files[dir+"operstate"] = typ+"\n", state+"\n"
	if speed != "" {
		files[dir+"speed"] = speed + "\n"
	}
	if driver != "" {
		files["sys/devices/pci0/"+name+"/vendor"] = "0x15b3\n"
		files["sys/devices/pci0/"+name+"/driver"] = "->../../../bus/pci/drivers/" + driver
		files["sys/bus/pci/drivers/"+driver+"/bind"] = ""
		files[dir+"device"] = "->../../../devices/pci0/" + name
	}
}

func TestDescribeCluster(t *testing.T) {
	files := map[string]string{
		"proc/cpuinfo":           "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz\n\nprocessor\t: 1\nmodel name\t: other\n",
		"proc/meminfo":           "MemTotal:       196608000 kB\nMemFree: 1 kB\n",
		"proc/sys/kernel/ostype": "Linux\n", "proc/sys/kernel/osrelease": "5.14.0-427.el9.x86_64\n",
		"etc/os-release": "NAME=\"Rocky Linux\"\nVERSION=\"9.4 (Blue Onyx)\"\nPRETTY_NAME=\"Rocky Linux 9.4 (Blue Onyx)\"\n",
	}
	cpus(files, 80, 2, 20) // 2 sockets of 20 cores, 2 threads each
	nic(files, "lo", "772", "unknown", "", "")
	nic(files, "eno1", "1", "up", "25000", "ice")
	nic(files, "eno2", "1", "down", "-1", "ice")
	nic(files, "ib0", "32", "up", "", "mlx5_core")
	nic(files, "ens2f0", "1", "up", "100000", "mlx5_core")
	nic(files, "hsn0", "1", "up", "200000", "cxi_core")
	nic(files, "docker0", "1", "up", "", "")
	files["sys/class/infiniband/mlx5_0/ports/1/rate"] = "200 Gb/sec (4X HDR)\n"
	files["sys/class/infiniband/mlx5_0/ports/1/state"] = "4: ACTIVE\n"
	files["sys/class/infiniband/mlx5_0/ports/1/link_layer"] = "InfiniBand\n"
	files["sys/class/infiniband/mlx5_0/device/net/ib0/x"] = ""
	files["sys/class/infiniband/mlx5_1/ports/1/rate"] = "100 Gb/sec (4X EDR)\n"
	files["sys/class/infiniband/mlx5_1/ports/1/state"] = "4: ACTIVE\n"
	files["sys/class/infiniband/mlx5_1/ports/1/link_layer"] = "Ethernet\n"
	files["sys/class/infiniband/mlx5_1/device/net/ens2f0/x"] = ""
	root := tree(t, files)
	m := Describe(root, "amd64")
	assert.Equal(t, Machine{CPU: "Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz", Sockets: 2, Cores: 40, Threads: 80, MemMiB: 192000,
		Kernel: "Linux 5.14.0-427.el9.x86_64 amd64", OS: "Rocky Linux 9.4 (Blue Onyx)",
		NICs: []NIC{
			{Name: "docker0", Kind: "virtual"},
			{Name: "eno1", Kind: "ethernet", Speed: "25 Gb/s", Device: "ice"},
			{Name: "ens2f0", Kind: "roce", Speed: "100 Gb/s", Device: "mlx5_core mlx5_1:1"},
			{Name: "hsn0", Kind: "slingshot", Speed: "200 Gb/s", Device: "cxi_core"},
			{Name: "ib0", Kind: "infiniband", Speed: "200 Gb/s", Device: "mlx5_core mlx5_0:1"},
		}}, m)
	assert.Equal(t, []string{
		"Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz, 2 sockets, 40 cores, 80 threads",
		"192000 MiB",
		"docker0 virtual; eno1 ethernet 25 Gb/s ice; ens2f0 roce 100 Gb/s mlx5_core mlx5_1:1; hsn0 slingshot 200 Gb/s cxi_core; ib0 infiniband 200 Gb/s mlx5_core mlx5_0:1",
		"Linux 5.14.0-427.el9.x86_64 amd64",
		"Rocky Linux 9.4 (Blue Onyx)",
	}, m.Lines())
}

func TestDescribeSparse(t *testing.T) {
	// an Arm node whose cpuinfo has no model name, no topology in sysfs,
	// os-release only under /usr/lib, no interface up: what is known
	root := tree(t, map[string]string{
		"proc/cpuinfo":                  "processor\t: 0\nCPU implementer\t: 0x41\nCPU part\t: 0xd0c\n",
		"sys/devices/system/cpu/online": "0-3\n",
		"usr/lib/os-release":            "NAME=Debian\nVERSION=13\n",
		"proc/sys/kernel/arch":          "aarch64\n",
	})
	m := Describe(root, "arm64")
	assert.Equal(t, Machine{CPU: "Arm implementer 0x41 part 0xd0c", Threads: 4, Kernel: "aarch64", OS: "Debian 13"}, m)
	assert.Equal(t, []string{"Arm implementer 0x41 part 0xd0c, 4 threads", "", "none up", "aarch64", "Debian 13"}, m.Lines())
	assert.Equal(t, Machine{Kernel: "amd64"}, Describe(t.TempDir(), "amd64"), "nothing readable: nothing known")
}

// TestDescribeBounded: a hostile tree (huge values, control characters,
// a CPU list without end, many interfaces) gives bounded lines.
func TestDescribeBounded(t *testing.T) {
	files := map[string]string{
		"proc/cpuinfo":                  "model name: " + strings.Repeat("x", 5000) + "\x1b[31m\n",
		"sys/devices/system/cpu/online": "0-999999999\n",
		"etc/os-release":                "PRETTY_NAME=\"a\x07b\"\n",
	}
	for i := range 100 {
		nic(files, fmt.Sprintf("veth%03d", i), "1", "up", "", "")
	}
	m := Describe(tree(t, files), "amd64")
	assert.LessOrEqual(t, len(m.CPU), maxValue+len("…"))
	assert.NotContains(t, m.CPU, "\x1b")
	assert.Equal(t, maxCPUs, m.Threads)
	assert.Equal(t, "a b", m.OS)
	assert.Len(t, m.NICs, MaxShown)
	assert.Equal(t, maxNICs-MaxShown, m.More, "at most maxNICs looked at")
	assert.True(t, strings.HasSuffix(m.Lines()[2], "; and 56 more"), m.Lines()[2])
	for _, l := range m.Lines() {
		assert.Less(t, len(l), 2000)
	}
}

func TestRecord(t *testing.T) {
	a := Machine{CPU: "A", Threads: 2, MemMiB: 1024, Kernel: "Linux 6.1", OS: "Debian 12"}
	b := a
	b.MemMiB = 2048
	assert.Equal(t, [][2]string{{KeyCPU, "A, 2 threads"}, {KeyMemory, "1024 MiB"}, {KeyNet, "none up"}, {KeyKernel, "Linux 6.1"}, {KeyOS, "Debian 12"}},
		Record([]Kind{{a, "n0"}}, 1), "one kind: its values")
	got := Record([]Kind{{a, "n0"}, {b, "n[1-3]"}}, 9)
	assert.Equal(t, [2]string{KeyMemory, "1024 MiB (n0); 2048 MiB (n[1-3])"}, got[1], "values that differ, with their hosts")
	assert.Equal(t, [2]string{KeyCPU, "A, 2 threads"}, got[0], "a value all kinds share: once")
	assert.Equal(t, [2]string{KeyKinds, "9: the nodes differ; the first 2 are described"}, got[5])
	assert.Empty(t, Record(nil, 0), "nothing gathered: no lines")
	b.Kernel = ""
	assert.Equal(t, "Linux 6.1 (n0); unknown (n[1-3])", Record([]Kind{{a, "n0"}, {b, "n[1-3]"}}, 2)[3][1])
	assert.NotEqual(t, a.Hash(), b.Hash())
	c := a
	assert.Equal(t, a.Hash(), c.Hash())
}

func TestMPISettings(t *testing.T) {
	env := []string{"PATH=/bin", "UCX_TLS=rc,sm", "OMPI_MCA_btl=^openib", "OMPI_MCA_orte_hnp_uri=123;tcp://x", "OMPI_COMM_WORLD_RANK=0",
		"FI_PROVIDER=cxi", "MPIR_CVAR_CH3_INTERFACE_HOSTNAME=n0", "I_MPI_FABRICS=shm:ofi", "MPICH_ASYNC_PROGRESS=1", "PMI_RANK=0",
		"OMPI_MCA_mpi_yield_when_idle=1", "OMPI_MCA_PREFIXES=mca,opal", "UCX_IB_GID_INDEX=", "FI_CXI_X=a b", "HFI_NO_BACKTRACE=1"}
	assert.Equal(t, `FI_CXI_X="a b" FI_PROVIDER=cxi I_MPI_FABRICS=shm:ofi MPICH_ASYNC_PROGRESS=1 OMPI_MCA_btl=^openib OMPI_MCA_mpi_yield_when_idle=1 UCX_IB_GID_INDEX="" UCX_TLS=rc,sm`,
		MPISettings(env))
	assert.Equal(t, "none", MPISettings([]string{"PATH=/bin", "OMPI_MCA_ess_base_jobid=1"}))
	var many []string
	for i := range 100 {
		many = append(many, fmt.Sprintf("UCX_X%03d=%s", i, strings.Repeat("v", 300)))
	}
	got := MPISettings(many)
	assert.LessOrEqual(t, len(got), maxEnvLine+50)
	assert.Regexp(t, ` and \d+ more$`, got)
}
