// Package machine describes the node a process runs on, as a results
// file records it: the CPU and its topology, the memory, the network
// interfaces with their kind and speed, the kernel and the operating
// system, read from /proc, /sys and /etc under a root directory (tests
// give their own). It is plain Go: the harness gathers one description
// per kind of node.
//
// Every read is bounded: a file is read up to maxFile bytes, at most
// maxCPUs CPUs and maxNICs interfaces are looked at, and every value is
// cut to maxValue bytes, so that no line of the record grows with the
// machine.
package machine

import (
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Bounds of what is read and written.
const (
	maxFile  = 1 << 20 // bytes read of a file (a /proc/cpuinfo of 4096 CPUs is about 6 MB: the first CPUs tell the model)
	maxCPUs  = 1 << 14 // CPUs whose topology is read
	maxNICs  = 64      // interfaces looked at
	MaxShown = 8       // interfaces written
	maxValue = 200     // bytes of one value
)

// A Machine is what the record says of one node.
type Machine struct {
	CPU     string // the model, "Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz"
	Sockets int    // 0: unknown
	Cores   int    // physical cores of all sockets (0: unknown)
	Threads int    // CPUs online (hardware threads)
	MemMiB  int64  // MemTotal
	NICs    []NIC  // the interfaces that are up, loopback left out: the first MaxShown by name
	More    int    // the interfaces up beyond those
	Kernel  string // "Linux 6.1.0-28-amd64 x86_64"
	OS      string // "Debian GNU/Linux 12 (bookworm)"
}

// A NIC is a network interface.
type NIC struct {
	Name   string // eth0, ib0, hsn0
	Kind   string // ethernet, infiniband, roce, slingshot, omni-path, virtual, other
	Speed  string // "100 Gb/s", "" when the interface does not say
	Device string // its driver, and the adapter port where there is one: "mlx5_core mlx5_0:1"
}

// Describe reads the Machine under root ("/" for this node); arch names
// the processor architecture where the kernel does not.
func Describe(root, arch string) Machine {
	r := reader(root)
	m := Machine{CPU: r.cpuModel(), MemMiB: r.memMiB(), Kernel: r.kernel(arch), OS: r.osName(), NICs: r.nics()}
	if len(m.NICs) > MaxShown {
		m.NICs, m.More = m.NICs[:MaxShown], len(m.NICs)-MaxShown
	}
	m.Sockets, m.Cores, m.Threads = r.topology()
	return m
}

// reader reads files under a root directory.
type reader string

func (r reader) path(p string) string { return filepath.Join(string(r), p) }

// read returns the first maxFile bytes of the file p ("" when it cannot
// be read).
func (r reader) read(p string) string {
	f, err := os.Open(r.path(p))
	if err != nil {
		return ""
	}
	defer f.Close()
	b, _ := io.ReadAll(io.LimitReader(f, maxFile))
	return string(b)
}

// word is the file p trimmed, cut to maxValue.
func (r reader) word(p string) string { return clip(strings.TrimSpace(r.read(p))) }

// clip makes v one line of printable text of at most maxValue bytes.
func clip(v string) string {
	v = strings.Join(strings.FieldsFunc(v, func(c rune) bool { return c < ' ' || c == 0x7f || c == ' ' }), " ")
	if len(v) > maxValue {
		v = strings.ToValidUTF8(v[:maxValue], "") + "…"
	}
	return v
}

// cpuModel is the processor's model from /proc/cpuinfo: "model name"
// (x86, some Arm kernels), "cpu" (POWER), "uarch" (RISC-V), else Arm's
// implementer and part numbers.
func (r reader) cpuModel() string {
	fields := map[string]string{}
	for _, l := range strings.Split(r.read("proc/cpuinfo"), "\n") {
		k, v, ok := strings.Cut(l, ":")
		k = strings.TrimSpace(k)
		if ok && fields[k] == "" {
			fields[k] = strings.TrimSpace(v)
		}
	}
	for _, k := range []string{"model name", "cpu", "uarch", "Model"} {
		if v := fields[k]; v != "" {
			return clip(v)
		}
	}
	if im, part := fields["CPU implementer"], fields["CPU part"]; im != "" {
		return clip("Arm implementer " + im + " part " + part)
	}
	return ""
}

// memMiB is MemTotal of /proc/meminfo in MiB.
func (r reader) memMiB() int64 {
	for _, l := range strings.Split(r.read("proc/meminfo"), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "MemTotal:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb / 1024
		}
	}
	return 0
}

// topology counts the sockets, cores and threads of the online CPUs from
// sysfs (0 where it does not say).
func (r reader) topology() (sockets, cores, threads int) {
	list := r.word("sys/devices/system/cpu/online")
	threads = min(countList(list), maxCPUs) // a node of more CPUs than that is not believed
	pkgs, cs := map[string]bool{}, map[string]bool{}
	for _, c := range parseList(list, maxCPUs) {
		dir := fmt.Sprintf("sys/devices/system/cpu/cpu%d/topology/", c)
		pkg, core := r.word(dir+"physical_package_id"), r.word(dir+"core_id")
		if pkg == "" || core == "" {
			return 0, 0, threads
		}
		pkgs[pkg], cs[pkg+"/"+core] = true, true
	}
	return len(pkgs), len(cs), threads
}

// cpuRanges reads a CPU list "0-3,8,10-11" as its ranges (nil when it
// does not read).
func cpuRanges(s string) [][2]int {
	var out [][2]int
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err1 := strconv.Atoi(lo)
		z, err2 := a, error(nil)
		if isRange {
			z, err2 = strconv.Atoi(hi)
		}
		if err1 != nil || err2 != nil || a < 0 || z < a {
			return nil
		}
		out = append(out, [2]int{a, z})
	}
	return out
}

// countList counts the CPUs of a list.
func countList(s string) int {
	n := 0
	for _, r := range cpuRanges(s) {
		n += r[1] - r[0] + 1
	}
	return n
}

// parseList lists the CPUs of a list, at most limit of them.
func parseList(s string, limit int) []int {
	var out []int
	for _, r := range cpuRanges(s) {
		for c := r[0]; c <= r[1] && len(out) < limit; c++ {
			out = append(out, c)
		}
	}
	return out
}

// kernel is the kernel's name, release and architecture.
func (r reader) kernel(arch string) string {
	name, rel := r.word("proc/sys/kernel/ostype"), r.word("proc/sys/kernel/osrelease")
	if a := r.word("proc/sys/kernel/arch"); a != "" {
		arch = a
	}
	return strings.TrimSpace(strings.Join([]string{name, rel, arch}, " "))
}

// osName is PRETTY_NAME of os-release (/etc, else /usr/lib), else its
// NAME and VERSION.
func (r reader) osName() string {
	text := r.read("etc/os-release")
	if text == "" {
		text = r.read("usr/lib/os-release")
	}
	kv := map[string]string{}
	for _, l := range strings.Split(text, "\n") {
		if k, v, ok := strings.Cut(l, "="); ok {
			if u, err := strconv.Unquote(v); err == nil {
				v = u
			}
			kv[k] = strings.Trim(v, `"'`)
		}
	}
	if v := kv["PRETTY_NAME"]; v != "" {
		return clip(v)
	}
	return clip(strings.TrimSpace(kv["NAME"] + " " + kv["VERSION"]))
}

// nics are the interfaces that are up (or whose state is unknown, as of
// some virtual ones), loopback left out, by name.
func (r reader) nics() []NIC {
	ents, err := os.ReadDir(r.path("sys/class/net"))
	if err != nil {
		return nil
	}
	ib := r.infiniband()
	var out []NIC
	for i, e := range ents {
		if i == maxNICs {
			break
		}
		dir := "sys/class/net/" + e.Name() + "/"
		typ, state := r.word(dir+"type"), r.word(dir+"operstate")
		if typ == "772" || (state != "up" && state != "unknown") {
			continue
		}
		out = append(out, r.nic(e.Name(), typ, ib))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// nic describes interface name of ARP type typ; ib maps a network
// interface to its InfiniBand or RoCE port.
func (r reader) nic(name, typ string, ib map[string]ibPort) NIC {
	dir := "sys/class/net/" + name + "/"
	n := NIC{Name: clip(name)}
	driver := filepath.Base(r.link(dir + "device/driver"))
	if r.link(dir+"device") == "" {
		driver = ""
	}
	if mbps, err := strconv.ParseInt(r.word(dir+"speed"), 10, 64); err == nil && mbps > 0 {
		n.Speed = speed(mbps)
	}
	port, isIB := ib[name]
	switch {
	case isIB && port.linkLayer == "Ethernet":
		n.Kind = "roce"
	case isIB || typ == "32":
		n.Kind = "infiniband"
		if strings.HasPrefix(driver, "hfi1") {
			n.Kind = "omni-path"
		}
	case strings.HasPrefix(driver, "cxi"):
		n.Kind = "slingshot"
	case driver == "":
		n.Kind = "virtual"
	case typ == "1":
		n.Kind = "ethernet"
	default:
		n.Kind = "other"
	}
	if isIB && port.rate != "" {
		n.Speed = port.rate
	}
	n.Device = driver
	if isIB {
		n.Device = strings.TrimSpace(driver + " " + port.name)
	}
	n.Device = clip(n.Device)
	return n
}

// link is the target of the symbolic link p ("" when it is none).
func (r reader) link(p string) string {
	t, err := os.Readlink(r.path(p))
	if err != nil {
		return ""
	}
	return t
}

// speed writes Mb/s as people say it: "100 Gb/s", "2.5 Gb/s", "100 Mb/s".
func speed(mbps int64) string {
	if mbps >= 1000 {
		return strconv.FormatFloat(float64(mbps)/1000, 'f', -1, 64) + " Gb/s"
	}
	return strconv.FormatInt(mbps, 10) + " Mb/s"
}

// An ibPort is an InfiniBand (or RoCE) adapter's port.
type ibPort struct {
	name      string // "mlx5_0:1"
	rate      string // "100 Gb/s" (of "100 Gb/sec (4X EDR)")
	linkLayer string // InfiniBand or Ethernet
}

// infiniband maps each network interface of an InfiniBand adapter to the
// adapter's first active port (the adapter's net directory names its
// interfaces).
func (r reader) infiniband() map[string]ibPort {
	out := map[string]ibPort{}
	devs, _ := os.ReadDir(r.path("sys/class/infiniband"))
	for i, d := range devs {
		if i == maxNICs {
			break
		}
		base := "sys/class/infiniband/" + d.Name() + "/"
		port := r.activePort(base, d.Name())
		netdevs, _ := os.ReadDir(r.path(base + "device/net"))
		for j, n := range netdevs {
			if j == maxNICs {
				break
			}
			out[n.Name()] = port
		}
	}
	return out
}

// activePort is the first port of adapter dev whose state is ACTIVE, else
// its first port.
func (r reader) activePort(base, dev string) ibPort {
	ports, _ := os.ReadDir(r.path(base + "ports"))
	names := make([]string, 0, len(ports))
	for _, p := range ports {
		names = append(names, p.Name())
	}
	slices.SortFunc(names, func(a, b string) int { x, _ := strconv.Atoi(a); y, _ := strconv.Atoi(b); return x - y })
	var first ibPort
	for i, p := range names {
		if i == maxNICs {
			break
		}
		dir := base + "ports/" + p + "/"
		rate, _, _ := strings.Cut(r.word(dir+"rate"), " (")
		port := ibPort{name: dev + ":" + p, rate: strings.Replace(rate, "Gb/sec", "Gb/s", 1), linkLayer: r.word(dir + "link_layer")}
		if strings.Contains(r.word(dir+"state"), "ACTIVE") {
			return port
		}
		if i == 0 {
			first = port
		}
	}
	return first
}

// Keys of the record's lines of the machine.
const (
	KeyCPU    = "machine-cpu"    // model, sockets, cores, threads
	KeyMemory = "machine-memory" // MemTotal
	KeyNet    = "machine-net"    // the interfaces that are up
	KeyKernel = "machine-kernel" // name, release, architecture
	KeyOS     = "machine-os"     // os-release's name
	KeyKinds  = "machine-kinds"  // kinds of node, where the nodes differ
)

// Keys lists them in the record's order.
var Keys = []string{KeyCPU, KeyMemory, KeyNet, KeyKernel, KeyOS}

// RecordLines names for people every line of the record that describes the
// machine and its MPI's settings, in the record's order.
var RecordLines = []struct{ Key, Label string }{
	{KeyCPU, "CPU"}, {KeyMemory, "memory per node"}, {KeyNet, "network interfaces"}, {KeyKernel, "kernel"},
	{KeyOS, "operating system"}, {KeyKinds, "kinds of node"}, {KeyMPIEnv, "MPI settings (environment)"},
}

// Lines are the machine's record lines, in the order of Keys ("" for a
// value it does not know).
func (m Machine) Lines() []string {
	return []string{m.cpuLine(), m.memLine(), m.netLine(), m.Kernel, m.OS}
}

func (m Machine) cpuLine() string {
	parts := []string{m.CPU}
	for _, c := range []struct {
		n    int
		unit string
	}{{m.Sockets, "socket"}, {m.Cores, "core"}, {m.Threads, "thread"}} {
		if c.n > 0 {
			parts = append(parts, plural(c.n, c.unit))
		}
	}
	return strings.TrimPrefix(strings.Join(parts, ", "), ", ")
}

func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return strconv.Itoa(n) + " " + unit + "s"
}

func (m Machine) memLine() string {
	if m.MemMiB <= 0 {
		return ""
	}
	return strconv.FormatInt(m.MemMiB, 10) + " MiB"
}

// netLine writes at most MaxShown interfaces, "name kind [speed] [device]"
// each, and how many more there are.
func (m Machine) netLine() string {
	var parts []string
	for _, n := range m.NICs {
		f := []string{n.Name, n.Kind}
		for _, v := range []string{n.Speed, n.Device} {
			if v != "" {
				f = append(f, v)
			}
		}
		parts = append(parts, strings.Join(f, " "))
	}
	if m.More > 0 {
		parts = append(parts, fmt.Sprintf("and %d more", m.More))
	}
	if len(parts) == 0 {
		return "none up"
	}
	return strings.Join(parts, "; ")
}

// Hash identifies the machine by its lines: nodes of one hash are of one
// kind.
func (m Machine) Hash() uint64 {
	h := fnv.New64a()
	for _, l := range m.Lines() {
		io.WriteString(h, l+"\n")
	}
	return h.Sum64()
}

// A Kind is the machine of some of a job's nodes.
type Kind struct {
	Machine Machine
	Hosts   string // the nodes, as the mpi-hosts line sums them up
}

// MaxKinds bounds the kinds of node a record describes.
const MaxKinds = 8

// Record is the record's lines of the machine of a job whose nodes are of
// kinds (the first MaxKinds of all, rank 0's first): a line per key of
// Keys, with the one value all kinds share or each kind's value with its
// hosts ("value (hosts); …"), then, where the nodes differ, how many
// kinds there are. Each line is bounded: at most MaxKinds values.
func Record(kinds []Kind, all int) [][2]string {
	var out [][2]string
	lines := make([][]string, len(kinds))
	for i, k := range kinds {
		lines[i] = k.Machine.Lines()
	}
	for j, key := range Keys {
		var vals []string
		for i := range kinds {
			vals = append(vals, orUnknown(lines[i][j]))
		}
		if len(vals) == 0 {
			continue
		}
		if !slices.ContainsFunc(vals, func(v string) bool { return v != vals[0] }) {
			out = append(out, [2]string{key, vals[0]})
			continue
		}
		for i := range vals {
			vals[i] += " (" + kinds[i].Hosts + ")"
		}
		out = append(out, [2]string{key, strings.Join(vals, "; ")})
	}
	if all > 1 {
		v := fmt.Sprintf("%d: the nodes differ", all)
		if all > len(kinds) {
			v += fmt.Sprintf("; the first %d are described", len(kinds))
		}
		out = append(out, [2]string{KeyKinds, v})
	}
	return out
}

func orUnknown(v string) string {
	if v == "" {
		return "unknown"
	}
	return v
}
