package driver

import (
	"github.com/beff-suite/beff/suites/beffio"
	"github.com/beff-suite/beff/suites/beffio/loops"
)

// ioLayouts maps each pattern type to the binding's layout of its calls:
// which MPI-IO calls it makes and where in the file they go.
var ioLayouts = map[beffio.PatternType]loops.IOLayout{
	beffio.Scatter:   loops.IOStrided,    // collective, a strided fileview
	beffio.Shared:    loops.IOOrdered,    // collective at the shared file pointer
	beffio.Separated: loops.IOOwnFile,    // individual, a file per process
	beffio.Segmented: loops.IOSegment,    // individual, a segment per process
	beffio.SegColl:   loops.IOSegmentAll, // collective, a segment per process
}
