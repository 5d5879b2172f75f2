// Package comparetest writes synthetic results files for tests: several
// runs derived from one real run (a seed file) by a deterministic jitter
// of every measurement, optionally slowed down or with other
// configuration lines.
package comparetest

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"golang.org/x/perf/benchfmt"
)

// A Variant says how Write derives runs from the seed.
type Variant struct {
	// Runs is the number of runs to write, as -test.count does: every
	// benchmark line of the seed Runs times, benchmark by benchmark in the
	// order they first appear.
	Runs int
	// FirstRun numbers the first run written (0-based): run k of a file
	// has the same values whatever the FirstRun of the file, so one-run
	// files with FirstRun 0, 1, ... hold the runs of one file with Runs > 1.
	FirstRun int
	// Seed seeds the jitter; equal seeds give equal files.
	Seed uint64
	// OneLaunch keeps the runs in one launch (one configuration block),
	// as -test.count does within one mpirun; otherwise every run is a
	// launch of its own: its date line is the seed's plus its number in
	// seconds.
	OneLaunch bool
	// Jitter is the relative amplitude of the jitter: every line of every
	// run is slowed down or sped up by a factor drawn uniformly from
	// [1-Jitter, 1+Jitter].
	Jitter float64
	// Scale, if not nil, gives a further factor for each line by its name
	// (without "Benchmark"); 1 leaves the line as it is.
	Scale func(name string) float64
	// Config replaces the values of configuration lines (key → value).
	Config map[string]string
	// Keep, if not nil, selects the lines to write by name.
	Keep func(name string) bool
	// Rates, if not nil, gives a factor for the rates alone of each line
	// by its name (its times stay): a line of more bytes in the same time,
	// as when the processes, and so the messages per iteration, change.
	Rates func(name string) float64
}

// Bandwidths and amounts per time grow with a speed-up factor; times
// shrink. Other metrics (counts, data) stay.
var (
	rates = map[string]bool{"MB/s": true, "min-MB/s": true, "avg-MB/s": true}
	times = map[string]bool{"ms/loop": true, "ns/op": true, "s": true}
)

// isTime says whether unit is a time: one of times, or microseconds (us,
// or a unit ending in -us such as median-us).
func isTime(unit string) bool {
	return times[unit] || unit == "us" || strings.HasSuffix(unit, "-us")
}

// Write writes opt.Runs runs derived from the benchfmt in seed to w: each
// line's rates are multiplied, and its times divided, by its factor (the
// jitter times Scale). The unit lines and the configuration (with
// opt.Config) are kept.
func Write(w io.Writer, seed []byte, opt Variant) error {
	var blocks [][]*benchfmt.Result // the lines of each benchmark
	index := map[string]int{}       // benchmark → its block
	var units []*benchfmt.UnitMetadata
	r := benchfmt.NewReader(bytes.NewReader(seed), "seed")
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.SyntaxError:
			return rec
		case *benchfmt.UnitMetadata:
			units = append(units, rec)
		case *benchfmt.Result:
			if opt.Keep != nil && !opt.Keep(string(rec.Name)) {
				continue
			}
			res := rec.Clone()
			for i, c := range res.Config {
				if v, ok := opt.Config[c.Key]; ok && c.File {
					res.Config[i].Value = []byte(v)
				}
			}
			base := string(res.Name.Base())
			i, ok := index[base]
			if !ok {
				i, index[base] = len(blocks), len(blocks)
				blocks = append(blocks, nil)
			}
			blocks[i] = append(blocks[i], res)
		}
	}
	if err := r.Err(); err != nil {
		return err
	}
	bw := benchfmt.NewWriter(w)
	for _, u := range units {
		if err := bw.Write(u); err != nil {
			return err
		}
	}
	for block, results := range blocks {
		for run := opt.FirstRun; run < opt.FirstRun+opt.Runs; run++ {
			rng := rand.New(rand.NewPCG(opt.Seed, uint64(block*1000+run)))
			for _, res := range results {
				f := 1 + opt.Jitter*(2*rng.Float64()-1)
				if opt.Scale != nil {
					f *= opt.Scale(string(res.Name))
				}
				out := res.Clone()
				if !opt.OneLaunch {
					launchDate(out, run)
				}
				rf := 1.0
				if opt.Rates != nil {
					rf = opt.Rates(string(res.Name))
				}
				for i, v := range out.Values {
					unit := v.Unit
					if v.OrigUnit != "" {
						unit = v.OrigUnit
					}
					switch {
					case rates[unit]:
						out.Values[i].Value *= f * rf
						out.Values[i].OrigValue *= f * rf
					case isTime(unit):
						out.Values[i].Value /= f
						out.Values[i].OrigValue /= f
					}
				}
				if err := bw.Write(out); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// launchDate moves the date line of res on by run seconds, or gives it
// one, so that every run is a launch of its own.
func launchDate(res *benchfmt.Result, run int) {
	for i, c := range res.Config {
		if c.Key == "date" && c.File {
			if t, err := time.Parse(time.RFC3339, string(c.Value)); err == nil {
				res.Config[i].Value = []byte(t.Add(time.Duration(run) * time.Second).UTC().Format(time.RFC3339))
				return
			}
		}
	}
	res.Config = append(res.Config, benchfmt.Config{Key: "date", Value: []byte(time.Date(2026, 1, 1, 0, 0, run, 0, time.UTC).Format(time.RFC3339)), File: true})
}

// WriteFile writes the runs derived from the seed file seedPath to path;
// see Write.
func WriteFile(path, seedPath string, opt Variant) error {
	seed, err := os.ReadFile(seedPath)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := Write(&b, seed, opt); err != nil {
		return fmt.Errorf("writing %s from %s: %w", path, seedPath, err)
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}
