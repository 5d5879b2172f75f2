package results

import "slices"

// An Identity is every name a suite goes by, in one record: the suite's
// own package defines it, its driver registers with it, its fold answers
// with it (Suite.ID), and the generic layers name the suite only through
// it.
type Identity struct {
	// Key is the suite's name in code and in files: the harness keys its
	// settings by it, its flags start with Key+"." (-beffio.T) and its
	// configuration lines with Key+"-" (beffio-t-s).
	Key string
	// Name names the suite for people: protocols, table titles, messages,
	// the site, and the "benchmark" of its runs in JSON ("b_eff_io").
	Name string
	// Bench is its benchmark's base name as benchfmt reports it ("BeffIO"
	// for BenchmarkBeffIO); FoldBench names its folded figures.
	Bench string
	// JSONKey is the key of its details in a JSON run ("beff_io", as
	// docs/fold-json.md publishes it).
	JSONKey string
	// Doc is the page that defines the suite ("docs/beffio.md").
	Doc string
	// Units are the unit lines of its measurements, as benchfmt wants
	// them after "Unit " ("MB/s better=higher"); FoldUnits the units of
	// its folded figures with their direction.
	Units     []string
	FoldUnits []Unit
	// Drawn are the keys of its Settings that a run draws at random (b_eff's
	// seed of its random patterns): runs that differ only in them sample
	// one definition, so their folded figures pool, while an experiment
	// the suite marks Drawn pools only within one draw.
	Drawn []string
}

// IsDrawn reports whether the setting key is drawn at random per run.
func (id *Identity) IsDrawn(key string) bool { return slices.Contains(id.Drawn, key) }

// Benchmark is the name of the suite's benchmark function: "BenchmarkBeffIO".
func (id *Identity) Benchmark() string { return "Benchmark" + id.Bench }

// FoldBetter is the direction ("higher" or "lower") of unit among the
// suite's folded figures, "" when it is not one of their units.
func (id *Identity) FoldBetter(unit string) string {
	for _, u := range id.FoldUnits {
		if u.Name == unit {
			return u.Better
		}
	}
	return ""
}

// FoldBench is the base name of the suite's folded figures: "BeffIOFold".
func (id *Identity) FoldBench() string { return id.Bench + "Fold" }
