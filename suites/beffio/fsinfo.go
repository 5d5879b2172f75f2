package beffio

import (
	"bufio"
	"bytes"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// What a run records of the file system its files are on: the type and
// source of the mount that holds the directory (from /proc/self/mountinfo)
// and, for GlusterFS, the servers of its bricks.

// A Mount is one line of mountinfo: where it is mounted, the file
// system's type and its source ("10.77.0.3:/beff", "/dev/vda").
type Mount struct{ Point, Type, Source string }

// MountOf finds the mount that holds path (absolute, clean) in the text of
// /proc/self/mountinfo: the longest mount point that is path or a parent
// of it, the last such line when one is mounted over another.
func MountOf(mountinfo []byte, path string) (Mount, bool) {
	var best Mount
	found := false
	sc := bufio.NewScanner(bytes.NewReader(mountinfo))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		m, ok := parseMountinfo(sc.Text())
		if !ok || !under(path, m.Point) {
			continue
		}
		if !found || len(m.Point) >= len(best.Point) {
			best, found = m, true
		}
	}
	return best, found
}

// parseMountinfo reads one line: "id parent major:minor root point
// options [optional…] - type source super-options".
func parseMountinfo(line string) (Mount, bool) {
	f := strings.Fields(line)
	sep := slices.Index(f, "-")
	if len(f) < 5 || sep < 6 || sep+2 >= len(f) {
		return Mount{}, false
	}
	return Mount{Point: unescape(f[4]), Type: f[sep+1], Source: unescape(f[sep+2])}, true
}

// unescape undoes mountinfo's octal escapes of space, tab, newline and
// backslash.
func unescape(s string) string {
	r := strings.NewReplacer(`\040`, " ", `\011`, "\t", `\012`, "\n", `\134`, `\`)
	return r.Replace(s)
}

// under says whether path is point or below it.
func under(path, point string) bool {
	if point == "/" {
		return strings.HasPrefix(path, "/")
	}
	rel, err := filepath.Rel(point, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

// glusterBrick matches a brick in GlusterFS's trusted.glusterfs.pathinfo:
// "<POSIX(/brick/path):host:/brick/path/…>".
var glusterBrick = regexp.MustCompile(`<POSIX\([^)]*\):([^:>]+):`)

// GlusterServers are the hosts of the bricks that GlusterFS's
// trusted.glusterfs.pathinfo of a directory names, sorted, each once.
func GlusterServers(pathinfo string) []string {
	var out []string
	for _, m := range glusterBrick.FindAllStringSubmatch(pathinfo, -1) {
		if !slices.Contains(out, m[1]) {
			out = append(out, m[1])
		}
	}
	slices.Sort(out)
	return out
}

// FSLine is the value of beffio-fs: "fuse.glusterfs 10.77.0.3:/beff,
// servers n1, n2", or the type and source alone.
func FSLine(m Mount, servers []string) string {
	s := m.Type + " " + m.Source
	if len(servers) > 0 {
		s += ", servers " + strings.Join(servers, ", ")
	}
	return s
}
