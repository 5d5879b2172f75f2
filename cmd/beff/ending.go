package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/beff-suite/beff/internal/results"
)

// The end of a job's output in a terminal: what a person looks at after
// hundreds of lines of protocol — the headline figures with their
// validity, where the run is stored and the commands that show it.

// writeEnding writes the ending of a stored job: the file, each folded
// run's headline and validity, and the commands that show the results
// of dir as pages and compare the run with another.
func writeEnding(w io.Writer, stored, dir string, folded []results.Folded) {
	fmt.Fprintf(w, "\nbeff run: stored %s\n", stored)
	heads, width := make([]string, len(folded)), 0
	for i, p := range folded {
		heads[i] = headline(p)
		width = max(width, utf8.RuneCountInString(heads[i]))
	}
	for i, p := range folded {
		fmt.Fprintf(w, "  %s%s  %s\n", heads[i], strings.Repeat(" ", width-utf8.RuneCountInString(heads[i])), validity(p.Verdict()))
	}
	fmt.Fprintf(w, "  as pages:      %s report -o site %s   (then open site/index.html)\n", self(), dir)
	fmt.Fprintf(w, "  beside others: %s compare %s OTHER.txt\n", self(), stored)
}

// writeLaunchesEnding writes the ending of several launches: where they
// are stored and the commands that show and compare them.
func writeLaunchesEnding(w io.Writer, dirs []string, gate bool) {
	fmt.Fprintf(w, "\nbeff run: stored the launches in %s\n", strings.Join(dirs, " and "))
	fmt.Fprintf(w, "  as pages:      %s report -o site %s   (then open site/index.html)\n", self(), strings.Join(dirs, " "))
	if gate {
		fmt.Fprintf(w, "  to gate:       %s gate -base %s -new %s -max-drop P\n", self(), dirs[0], dirs[1])
		return
	}
	fmt.Fprintf(w, "  beside others: %s compare %s OTHER/\n", self(), dirs[0])
}

// headline is the first line of a folded run's protocol ("b_eff = 3602.4
// MB/s").
func headline(p results.Folded) string {
	var b bytes.Buffer
	if err := p.WriteText(&b); err != nil {
		return p.Source().Suite.ID().Name
	}
	first, _, _ := strings.Cut(b.String(), "\n")
	return first
}

// validity is VALID, or NOT VALID with the reasons.
func validity(v *results.Validity) string {
	if v.Valid() {
		return "VALID"
	}
	return "NOT VALID: " + strings.Join(v.Reasons, "; ")
}

// self is how the user called this command: ./beff where make bench
// does, else beff.
func self() string {
	if a := os.Args[0]; strings.Contains(a, "/") && filepath.Base(a) == "beff" {
		return a
	}
	return "beff"
}
