package results

import (
	"fmt"
	"strconv"
	"strings"
)

// Config is the file configuration of a run: key → value as written.
type Config map[string]string

// A ConfigReader reads the configuration lines of one suite's run; its
// errors name the key and, for a missing line, say whose output the input
// is not.
type ConfigReader struct {
	Config Config
	Suite  string // "b_eff": in "not b_eff output: no … configuration line"
}

// Need returns the value of key, or an error when the line is missing.
func (c ConfigReader) Need(key string) (string, error) {
	v := c.Config[key]
	if v == "" {
		return "", fmt.Errorf("not %s output: no %s configuration line", c.Suite, key)
	}
	return v, nil
}

// PosInt returns the value of key as a positive whole number; the line
// must be there.
func (c ConfigReader) PosInt(key string) (int64, error) {
	v, err := c.Need(key)
	if err != nil {
		return 0, err
	}
	return PosInt(key, v)
}

// OptPosInt returns the value of key as a positive whole number, or 0
// when the line is missing.
func (c ConfigReader) OptPosInt(key string) (int64, error) {
	v := c.Config[key]
	if v == "" {
		return 0, nil
	}
	return PosInt(key, v)
}

// Increasing returns the value of key as a comma-separated list of
// positive whole numbers in increasing order; the line must be there.
func (c ConfigReader) Increasing(key string) ([]int64, error) {
	v, err := c.Need(key)
	if err != nil {
		return nil, err
	}
	var out []int64
	for _, s := range strings.Split(v, ",") {
		n, err := PosInt(key, strings.TrimSpace(s))
		if err != nil {
			return nil, err
		}
		if len(out) > 0 && n <= out[len(out)-1] {
			return nil, fmt.Errorf("%s: %s: the values must increase", key, v)
		}
		out = append(out, n)
	}
	return out, nil
}

// PosInt parses the value v of key as a positive whole number.
func PosInt(key, v string) (int64, error) {
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%s: %q is not a positive whole number", key, v)
	}
	return n, nil
}

// Common is the part of a run's configuration that every suite has: the
// job and what describes it.
type Common struct {
	N    int    // mpi-procs: the number of processes
	Mode string // beff-mode: "full" or "short (...)"

	// Descriptive lines, empty when absent.
	Date    string // date
	Library string // mpi-library
	Hosts   string // mpi-hosts
	Version string // beff-version
}

// Short reports whether the run is a quick run (beff-mode: short ...),
// which is not valid for comparison.
func (c *Common) Short() bool { return strings.HasPrefix(c.Mode, "short") }

// ReadProcs reads mpi-procs into c.N.
// The count must agree with mpi-hosts, when the run has that line.
func (c *Common) ReadProcs(r ConfigReader) error {
	n, err := r.PosInt(KeyProcs)
	if err != nil {
		return err
	}
	if n > MaxProcs {
		return fmt.Errorf("%s: %d processes, more than the %d a results file may give", KeyProcs, n, MaxProcs)
	}
	if h := r.Config[KeyHosts]; h != "" {
		if on, exact, ok := HostsProcs(h); ok && (on > n || exact && on != n) {
			return fmt.Errorf("%s: %d processes, but %s places %d: the configuration contradicts itself", KeyProcs, n, KeyHosts, on)
		}
	}
	c.N = int(n)
	return nil
}

// ReadMode reads beff-mode into c.Mode: full or short.
func (c *Common) ReadMode(r ConfigReader) error {
	var err error
	if c.Mode, err = r.Need(KeyMode); err != nil {
		return err
	}
	if c.Mode != ModeFull && !c.Short() {
		return fmt.Errorf("%s: unknown mode %q (want full or short)", KeyMode, c.Mode)
	}
	return nil
}

// Read reads every line of Common: the processes, the mode and the
// descriptive lines.
func (c *Common) Read(r ConfigReader) error {
	if err := c.ReadProcs(r); err != nil {
		return err
	}
	if err := c.ReadMode(r); err != nil {
		return err
	}
	c.ReadInfo(r)
	return nil
}

// ReadInfo reads the descriptive lines.
func (c *Common) ReadInfo(r ConfigReader) {
	c.Date = r.Config[KeyDate]
	c.Library = r.Config[KeyLibrary]
	c.Hosts = r.Config[KeyHosts]
	c.Version = r.Config[KeyVersion]
}

// Oversubscribed returns the validity reason of a run whose processes
// outnumbered a node's CPUs (mpi-oversubscribed: yes …), or "".
func (c Config) Oversubscribed() string {
	v := c[KeyOversub]
	if !strings.HasPrefix(v, "yes") {
		return ""
	}
	return "oversubscribed (" + strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(v, "yes"), ":")) + ")"
}

// ShortReason is the validity reason of a short run.
const ShortReason = "short run"
