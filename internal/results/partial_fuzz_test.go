package results

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/beff-suite/beff/internal/fuzzcount"
)

// FuzzReadPartial: the generic resume reader reads any output or refuses
// it with an error naming the file; what it reads holds at least one
// line and one configuration block per distinct configuration, and the
// comparison with a run's configuration never panics.
func FuzzReadPartial(f *testing.F) {
	paths, _ := filepath.Glob("testdata/*.txt")
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		if len(data) > 64<<10 {
			data = data[:64<<10]
		}
		f.Add(data)
	}
	f.Add([]byte("mpi-procs: 2\nmpi-procs: 3\nBenchmarkBeff/x=1 1 1 ns/op\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzcount.One()
		for _, bench := range []string{"Beff", "BeffIO", "Skampi"} {
			p, err := ReadPartial(bytes.NewReader(data), "p.txt", bench)
			if err != nil {
				if !strings.Contains(err.Error(), "p.txt") {
					t.Fatalf("error without the file: %v", err)
				}
				continue
			}
			if len(p.Points) == 0 || len(p.Blocks) == 0 || p.Config == nil {
				t.Fatalf("read without lines or configuration: %d points, %d blocks", len(p.Points), len(p.Blocks))
			}
			p.Differs(map[string]string{KeyProcs: "2"}, "beff-", "beffio-", "skampi-")
			p.Counts()
		}
	})
}
