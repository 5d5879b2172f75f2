package beffio

import "math"

// Rules names whose rules a run follows where the paper and the reference
// code b_eff_io 2.1 differ (docs/reference.md lists every difference):
//
//	                          paper (default)                  reference (-beffio.reference)
//	rewrite                   every type                       the scatter type only
//	stop of the timed write   geometric batches                one barrier and broadcast per call,
//	                                                           go on while t·(r+1)/r ≤ T_pattern
//	file modes                never MPI_MODE_UNIQUE_OPEN,      MPI_MODE_UNIQUE_OPEN, RDWR; the read
//	                          WRONLY                           opens with MPI_MODE_DELETE_ON_CLOSE
//	pattern-type time         open … close, as one span        open + Σ patterns + close (the read's
//	                          (the removal timed apart)        close includes removing the file)
//	pattern time              from after the positioning       from before the positioning (set_view)
//	b_eff_io                  max_n 0.25·W + 0.25·RW + 0.5·R   max_n √(mean(W_0…W_4, RW_0) · R)
//	valid                     T_n ≥ 15 min                     T_n ≥ 30 min
type Rules string

const (
	RulesPaper     Rules = "paper"
	RulesReference Rules = "reference"
)

// Valid reports whether r names a set of rules.
func (r Rules) Valid() bool { return r == RulesPaper || r == RulesReference }

// MinPartitionTime is the least scheduled time per partition of a valid
// result under the rules, seconds: the paper's 15 minutes, the reference
// code's T_CRIT of 30 minutes (which it compares with T per partition).
func (r Rules) MinPartitionTime() float64 {
	if r == RulesReference {
		return ReferenceMinPartitionTime
	}
	return MinPartitionTime
}

// ReferenceMinPartitionTime is the reference code's validity limit on the
// scheduled time per partition, seconds.
const ReferenceMinPartitionTime = 30 * 60

// OpenModes are the access flags beyond read or write with which the
// rules open the files of an access method.
type OpenModes struct {
	Unique        bool // MPI_MODE_UNIQUE_OPEN
	DeleteOnClose bool // MPI_MODE_DELETE_ON_CLOSE
	ReadWrite     bool // MPI_MODE_RDWR for the writing methods (else WRONLY)
}

// Open returns the flags of the files of access method a: none under the
// paper's rules; under the reference's unique open, read-write, and on the
// read deletion at close unless the files are kept.
func (r Rules) Open(a Access, keep bool) OpenModes {
	if r != RulesReference {
		return OpenModes{}
	}
	return OpenModes{Unique: true, ReadWrite: true, DeleteOnClose: a == Read && !keep}
}

// ReferenceValue is the final formula of the reference code 2.1 for one
// partition: the mean of the five write pattern-type values, each weighted
// once, and the scatter type's rewrite, times the read access-method value
// (scatter weighted twice), under a square root:
//
//	√( (W_scatter + W_shared + W_separated + W_segmented + W_segcoll + RW_scatter)/6 · R )
//
// write holds the write pattern-type bandwidths; a missing type counts 0,
// as it would in the reference code.
func ReferenceValue(write map[PatternType]float64, rewriteScatter, read float64) float64 {
	s := rewriteScatter
	for _, t := range Types { // in type order: the sum must not depend on map order
		s += write[t]
	}
	return math.Sqrt(s / float64(len(Types)+1) * read)
}
