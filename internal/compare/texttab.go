package compare

import (
	"bufio"
	"io"
	"strings"
	"unicode/utf8"
)

// An alignment places text in a column.
type alignment int

const (
	alignLeft alignment = iota
	alignRight
	alignCenter
)

// A tcell is one cell of a textTable. It starts at column col, spans span
// columns (1 or more) and is preceded by margin instead of the column's
// margin when margin is not empty (it must be as wide). An empty column
// is blank, margin included.
type tcell struct {
	col, span int
	text      string
	align     alignment
	margin    string
}

// A textTable lays out cells in columns, in the manner of benchstat's
// texttab: each column has a width (its widest single-column cell) and a
// left margin; a cell spanning several columns widens the first of them if
// it does not fit, so that numbers stay next to their ± column. Trailing
// blanks are trimmed.
type textTable struct {
	margins []string // the left margin of each column's cells
	rows    [][]tcell
	cur     int // the column the next cell of the current row starts at
}

func newTextTable(margins []string) *textTable { return &textTable{margins: margins} }

// row starts a row.
func (t *textTable) row() { t.rows = append(t.rows, nil); t.cur = 0 }

// col moves to column c of the current row.
func (t *textTable) col(c int) *textTable { t.cur = c; return t }

// cell adds a single-column cell at the current column and moves on.
func (t *textTable) cell(text string, a alignment, margin string) {
	t.span(1, text, a, margin)
}

// span adds a cell spanning n columns at the current column and moves on.
func (t *textTable) span(n int, text string, a alignment, margin string) {
	r := len(t.rows) - 1
	t.rows[r] = append(t.rows[r], tcell{t.cur, n, text, a, margin})
	t.cur += n
}

func width(s string) int { return utf8.RuneCountInString(s) }

func (t *textTable) write(w io.Writer) error {
	n := len(t.margins)
	widths := make([]int, n)
	for _, r := range t.rows {
		for _, c := range r {
			if c.span == 1 {
				widths[c.col] = max(widths[c.col], width(c.text))
			}
		}
	}
	spanWidth := func(c tcell) int {
		sw := widths[c.col]
		for k := c.col + 1; k < c.col+c.span; k++ {
			sw += width(t.margins[k]) + widths[k]
		}
		return sw
	}
	for _, r := range t.rows {
		for _, c := range r {
			if c.span > 1 {
				if extra := width(c.text) - spanWidth(c); extra > 0 {
					widths[c.col] += extra
				}
			}
		}
	}
	bw := bufio.NewWriter(w)
	var line strings.Builder
	for _, r := range t.rows {
		line.Reset()
		next := 0 // the first column not yet written
		put := func(c tcell) {
			for ; next < c.col; next++ { // empty columns
				line.WriteString(strings.Repeat(" ", width(t.margins[next])+widths[next]))
			}
			if c.margin != "" {
				line.WriteString(c.margin)
			} else {
				line.WriteString(t.margins[c.col])
			}
			sw := spanWidth(c)
			pad := sw - width(c.text)
			switch c.align {
			case alignLeft:
				line.WriteString(c.text + strings.Repeat(" ", pad))
			case alignRight:
				line.WriteString(strings.Repeat(" ", pad) + c.text)
			case alignCenter:
				line.WriteString(strings.Repeat(" ", pad/2) + c.text + strings.Repeat(" ", pad-pad/2))
			}
			next = c.col + c.span
		}
		for _, c := range r {
			put(c)
		}
		bw.WriteString(strings.TrimRight(line.String(), " "))
		bw.WriteByte('\n')
	}
	return bw.Flush()
}
