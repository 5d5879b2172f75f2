package driver

import (
	"github.com/beff-suite/beff/internal/mpi"
	"github.com/beff-suite/beff/suites/beffio"
)

// ioLayouts maps each pattern type to the binding's layout of its calls:
// which MPI-IO calls it makes and where in the file they go.
var ioLayouts = map[beffio.PatternType]mpi.IOLayout{
	beffio.Scatter:   mpi.IOStrided,    // collective, a strided fileview
	beffio.Shared:    mpi.IOOrdered,    // collective at the shared file pointer
	beffio.Separated: mpi.IOOwnFile,    // individual, a file per process
	beffio.Segmented: mpi.IOSegment,    // individual, a segment per process
	beffio.SegColl:   mpi.IOSegmentAll, // collective, a segment per process
}
