package results

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// The protocols that fold writes for people share their shape: a head
// with the single number and the validity, then blocks of information,
// figures, notes and tables. No line they write parses as a benchfmt
// configuration, result or unit line, so the text may precede benchfmt
// output in one stream.

// WriteProtocol writes a suite's protocol in the shape every protocol has:
// the head ("<label> = <value> MB/s", then "VALID" or "NOT VALID:
// <reason>; <reason>…", then a blank line), a block describing the run,
// the figures, the notes of the verdict, then the tables, each a function
// that writes its block.
func WriteProtocol(w io.Writer, label string, value float64, v *Validity, run, figures func(io.Writer), tables ...func(io.Writer)) error {
	return WriteProtocolHead(w, headline(label, value), v, run, figures, tables...)
}

// WriteProtocolHead is WriteProtocol for a suite whose single number is
// not a bandwidth: head is the first line.
func WriteProtocolHead(w io.Writer, head string, v *Validity, run, figures func(io.Writer), tables ...func(io.Writer)) error {
	bw := bufio.NewWriter(w)
	writeHead(bw, head, v)
	run(bw)
	figures(bw)
	Text{W: bw}.Notes(v.Notes)
	for _, t := range tables {
		t(bw)
	}
	return bw.Flush()
}

func headline(label string, value float64) string {
	return fmt.Sprintf("%s = %s MB/s", label, Num(value, 5, 1))
}

func writeHead(w io.Writer, head string, v *Validity) {
	fmt.Fprintln(w, head)
	if v.Valid() {
		fmt.Fprintf(w, "VALID\n\n")
	} else {
		fmt.Fprintf(w, "NOT VALID: %s\n\n", strings.Join(v.Reasons, "; "))
	}
}

// A Text writes the blocks of a protocol to W; Width is the width of the
// figure labels.
type Text struct {
	W     io.Writer
	Width int
}

// Info writes "  <label> <value>" with the label in 16 columns; nothing
// for an empty value.
func (t Text) Info(label, value string) {
	if value != "" {
		fmt.Fprintf(t.W, "  %-16s %s\n", label, value)
	}
}

// Job writes what every run says of its job: mode, date, MPI library,
// hosts and the version of beff.
func (t Text) Job(c *Common) {
	t.Info("mode", c.Mode)
	t.Info("date", c.Date)
	t.Info("mpi library", c.Library)
	t.Info("hosts", c.Hosts)
	t.Info("beff version", c.Version)
}

// Figure writes a figure: its label, its value right-aligned and its unit.
func (t Text) Figure(label, value, unit string) {
	fmt.Fprintf(t.W, "  %-*s %14s", t.Width, label, value)
	if unit != "" {
		fmt.Fprintf(t.W, " %s", unit)
	}
	fmt.Fprintln(t.W)
}

// Absent writes a figure the run cannot give, with the reason.
func (t Text) Absent(label, why string) {
	fmt.Fprintf(t.W, "  %-*s %14s (%s)\n", t.Width, label, "-", why)
}

// Notes writes the block of notes, if any.
func (t Text) Notes(notes []string) {
	if len(notes) == 0 {
		return
	}
	fmt.Fprintf(t.W, "\nNotes\n")
	for _, n := range notes {
		fmt.Fprintf(t.W, "  - %s\n", n)
	}
}

// Num formats v with at least digits significant digits and at least
// minDec decimals.
func Num(v float64, digits, minDec int) string {
	dec := minDec
	if v != 0 && !math.IsInf(v, 0) && !math.IsNaN(v) {
		dec = max(minDec, digits-1-int(math.Floor(math.Log10(math.Abs(v)))))
	}
	return strconv.FormatFloat(v, 'f', dec, 64)
}

// Seconds formats a time in seconds: whole seconds without decimals.
func Seconds(s float64) string {
	if s == math.Trunc(s) && s < 1e15 {
		return strconv.FormatFloat(s, 'f', 0, 64)
	}
	return Num(s, 4, 1)
}

// UnitText is a unit as people read it: benchfmt's "us" is "µs".
func UnitText(unit string) string {
	if unit == "us" {
		return "µs"
	}
	return unit
}

// Sig3 formats v with 3 significant digits, without exponent.
func Sig3(v float64) string {
	dec := max(0, 2-int(math.Floor(math.Log10(v))))
	return strconv.FormatFloat(v, 'f', dec, 64)
}

// JoinInts joins v with commas.
func JoinInts[T ~int | ~int64](v []T) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.FormatInt(int64(x), 10)
	}
	return strings.Join(s, ",")
}

// List joins the first n of s, with ", ..." when there are more.
func List(s []string, n int) string {
	if len(s) <= n {
		return strings.Join(s, ", ")
	}
	return strings.Join(s[:n], ", ") + ", ..."
}

// JoinWith joins s as "a, b <word> c": JoinWith(s, "and"), JoinWith(s, "or").
func JoinWith(s []string, word string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " " + word + " " + s[len(s)-1]
}

// Median is the median of v (the mean of the middle two of an even count;
// 0 for none); v is not changed.
func Median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// Processes is "1 process" or "n processes".
func Processes(n int) string {
	if n == 1 {
		return "1 process"
	}
	return strconv.Itoa(n) + " processes"
}

// Plural is "s" unless n is 1.
func Plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// A TextTable aligns columns: the first Left columns to the left, the others
// (numbers) to the right. Every line is indented by two spaces.
type TextTable struct {
	Left int
	rows [][]string
}

// Add adds a row.
func (t *TextTable) Add(cells ...string) { t.rows = append(t.rows, cells) }

// Write writes the rows.
func (t *TextTable) Write(w io.Writer) {
	n := 0
	for _, r := range t.rows {
		n = max(n, len(r))
	}
	margins := make([]string, n)
	for i := range margins {
		margins[i] = "  "
	}
	l := NewLayout(margins)
	for _, r := range t.rows {
		l.Row()
		for i, c := range r {
			a := AlignRight
			if i < t.Left {
				a = AlignLeft
			}
			l.Cell(c, a, "")
		}
	}
	l.Write(w)
}
