package results

import (
	"bufio"
	"io"
	"strings"
	"unicode/utf8"
)

// An Align places text in a column.
type Align int

const (
	AlignLeft Align = iota
	AlignRight
	AlignCenter
)

// A tcell is one cell of a Layout. It starts at column col, spans span
// columns (1 or more) and is preceded by margin instead of the column's
// margin when margin is not empty (it must be as wide). An empty column
// is blank, margin included.
type tcell struct {
	col, span int
	text      string
	align     Align
	margin    string
}

// A Layout lays out cells in columns, in the manner of benchstat's
// texttab: each column has a width (its widest single-column cell) and a
// left margin; a cell spanning several columns widens the first of them if
// it does not fit, so that numbers stay next to their ± column. Trailing
// blanks are trimmed. It is the one text-table layouter of beff: Table
// and the tables of compare and gate use it.
type Layout struct {
	margins []string // the left margin of each column's cells
	rows    [][]tcell
	cur     int // the column the next cell of the current row starts at
}

// NewLayout is a layout of len(margins) columns, each cell of column c
// preceded by margins[c].
func NewLayout(margins []string) *Layout { return &Layout{margins: margins} }

// Row starts a row.
func (t *Layout) Row() { t.rows = append(t.rows, nil); t.cur = 0 }

// Col moves to column c of the current row.
func (t *Layout) Col(c int) *Layout { t.cur = c; return t }

// Cell adds a single-column cell at the current column and moves on;
// a margin that is not empty replaces the column's.
func (t *Layout) Cell(text string, a Align, margin string) {
	t.Span(1, text, a, margin)
}

// Span adds a cell spanning n columns at the current column and moves on.
func (t *Layout) Span(n int, text string, a Align, margin string) {
	r := len(t.rows) - 1
	t.rows[r] = append(t.rows[r], tcell{t.cur, n, text, a, margin})
	t.cur += n
}

func runeWidth(s string) int { return utf8.RuneCountInString(s) }

// Write writes the rows.
func (t *Layout) Write(w io.Writer) error {
	n := len(t.margins)
	widths := make([]int, n)
	for _, r := range t.rows {
		for _, c := range r {
			if c.span == 1 {
				widths[c.col] = max(widths[c.col], runeWidth(c.text))
			}
		}
	}
	spanWidth := func(c tcell) int {
		sw := widths[c.col]
		for k := c.col + 1; k < c.col+c.span; k++ {
			sw += runeWidth(t.margins[k]) + widths[k]
		}
		return sw
	}
	for _, r := range t.rows {
		for _, c := range r {
			if c.span > 1 {
				if extra := runeWidth(c.text) - spanWidth(c); extra > 0 {
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
				line.WriteString(strings.Repeat(" ", runeWidth(t.margins[next])+widths[next]))
			}
			if c.margin != "" {
				line.WriteString(c.margin)
			} else {
				line.WriteString(t.margins[c.col])
			}
			sw := spanWidth(c)
			pad := sw - runeWidth(c.text)
			switch c.align {
			case AlignLeft:
				line.WriteString(c.text + strings.Repeat(" ", pad))
			case AlignRight:
				line.WriteString(strings.Repeat(" ", pad) + c.text)
			case AlignCenter:
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
