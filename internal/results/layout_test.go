package results

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLayout: spans widen their first column, custom margins replace the
// column's, empty columns stay blank, trailing blanks go.
func TestLayout(t *testing.T) {
	tt := NewLayout([]string{"", "  ", " ± ", "  "})
	tt.Row()
	tt.Cell("name", AlignLeft, "")
	tt.Span(2, "a wide header", AlignCenter, " │ ")
	tt.Cell("", AlignLeft, " │")
	tt.Row()
	tt.Cell("x", AlignLeft, "")
	tt.Cell("1.5", AlignRight, "")
	tt.Cell("2%", AlignRight, "")
	tt.Row()
	tt.Cell("longer", AlignLeft, "")
	tt.Col(2).Cell("10%", AlignRight, "")
	var b bytes.Buffer
	require.NoError(t, tt.Write(&b))
	assert.Equal(t, ""+
		"name   │ a wide header │\n"+
		"x           1.5 ±  2%\n"+
		"longer          ± 10%\n", b.String())
}

// TestTableOnLayout: a Table's first Left columns are left-aligned, the
// others right-aligned, two spaces before each, rows of any length.
func TestTableOnLayout(t *testing.T) {
	tab := TextTable{Left: 1}
	tab.Add("a", "1", "22")
	tab.Add("longer", "333")
	tab.Add("b")
	var b bytes.Buffer
	tab.Write(&b)
	assert.Equal(t, "  a         1  22\n  longer  333\n  b\n", b.String())
}
