package beffio_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/beff-suite/beff/suites/beffio"

	"github.com/beff-suite/beff/internal/fuzzcount"
)

// FuzzParseHints: a hints file is read or refused with an error naming
// the file; a rule read has at least one hint.
func FuzzParseHints(f *testing.F) {
	for _, s := range []string{"cb_nodes=2\n", "# c\npartition=2 access=write type=scatter l=1024 romio_cb_write=enable\n",
		"partition=* access=* type=* l=* a=b c=d\n", "x\n", "l=0 a=b\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzcount.One()
		rules, err := beffio.ParseHints(bytes.NewReader(data), "h.txt")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "h.txt:") {
				t.Fatalf("error without the file: %v", err)
			}
			return
		}
		for _, r := range rules {
			if len(r.Hints) == 0 {
				t.Fatalf("rule of line %d without a hint", r.Line)
			}
		}
	})
}
