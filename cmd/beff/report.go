package main

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/beff-suite/beff/internal/report"
	"github.com/beff-suite/beff/internal/results"
)

const reportUsage = `usage: beff report [-o DIR] [-now TIME] [-pages N] FILE|DIRECTORY...

Report writes a static web site about the runs in the results files to
DIR: index.html lists every run (sortable), runs/<id>.html
shows a run's figures, plots and protocol, compare.html overlays runs picked
by checkbox in one plot (zoomable, downloadable as SVG and PNG). A DIRECTORY
stands for its *.txt files. The site needs no network and works from
file://; open DIR/index.html in a browser. Of a site with more than N
runs (-pages, default 1000), the N newest by their date have pages and
are on the comparison page; the index lists all.

A file that does not read or fold completely is skipped with a message on
stderr (file:line: reason) and listed on the index page; the other files
make the site. A run that repeats another (a copy, whatever its
configuration lines) counts once, with a note; a file that joins several
jobs gives a run for each. DIR must not exist, be empty, or hold an earlier
report; its pages are replaced, and the files report did not write there
stay (it lists its own in DIR/.beff-report-files).

Exit status: 0 when the site was written (even with skipped files), 2 for
bad usage or when no run could be read, 1 when the site could not be
written (the table of every code: beff help).

Flags:
`

// reportMain is the report command.
func reportMain(stdout, stderr io.Writer, args []string) int {
	fs := newFlags("beff report", reportUsage, stderr)
	out := fs.String("o", "site", "write the site to `DIR`")
	nowFlag := fs.String("now", "", "generation `TIME` printed on the pages, RFC 3339 (default: now); for reproducible sites")
	runPages := fs.Int("pages", report.DefaultRunPages, "at most `N` runs, the newest, get a page of their own")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "beff report: no input files")
		fs.Usage()
		return exitBadInput
	}
	if *runPages < 1 {
		fmt.Fprintf(stderr, "beff report: -pages %d: at least one run page\n", *runPages)
		return exitBadInput
	}
	if *out == "" {
		fmt.Fprintln(stderr, "beff report: -o: empty directory name")
		return exitBadInput
	}
	now := time.Now()
	if *nowFlag != "" {
		t, err := time.Parse(time.RFC3339, *nowFlag)
		if err != nil {
			fmt.Fprintf(stderr, "beff report: parsing -now: %q is not an RFC 3339 time such as 2026-11-21T10:00:00Z\n", *nowFlag)
			return exitBadInput
		}
		now = t
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "beff report: %v\n", err)
		return exitFail
	}
	lib, libErr := report.EmbeddedLibrary()
	refuse := func(err error) int {
		fmt.Fprintf(stderr, "beff report: %v\n", err)
		return exitBadInput
	}
	paths, err := inputFiles(fs.Args())
	if err != nil {
		return refuse(err)
	}
	site := report.Load(paths, suites())
	for _, s := range site.Skipped {
		fmt.Fprintf(stderr, "beff report: skipping %v\n", s)
	}
	for _, n := range site.Repeats {
		fmt.Fprintf(stderr, "beff report: %s\n", n)
	}
	if len(site.Entries) == 0 {
		return refuse(fmt.Errorf("no run to report (%d file%s, all skipped)", len(paths), results.Plural(len(paths))))
	}
	if libErr != nil {
		fmt.Fprintf(stderr, "beff report: no plots: %v; the pages have their tables and say where each plot would be\n", libErr)
	}
	if err := site.Write(*out, report.Options{Now: now, Library: lib, NoPlots: libErr != nil, RunPages: *runPages}); errors.Is(err, report.ErrRefusedDir) {
		return refuse(err)
	} else if err != nil {
		return fail(err)
	}
	fmt.Fprintf(stdout, "beff report: %s: %d run%s from %d file%s", filepath.Join(*out, "index.html"),
		len(site.Entries), results.Plural(len(site.Entries)), len(paths)-len(site.Skipped), results.Plural(len(paths)-len(site.Skipped)))
	if n := len(site.Skipped); n > 0 {
		fmt.Fprintf(stdout, "; %d file%s skipped", n, results.Plural(n))
	}
	if n := len(site.Repeats); n > 0 {
		fmt.Fprintf(stdout, "; %d run%s repeating others left out", n, results.Plural(n))
	}
	if n := site.NPages(); n < len(site.Entries) {
		fmt.Fprintf(stdout, "; pages for the %d newest", n)
	}
	fmt.Fprintln(stdout)
	return exitOK
}

// inputFiles expands the arguments of report: a directory stands for its
// *.txt files in natural name order (run2 before run10); a path named
// twice counts once.
func inputFiles(args []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if c := filepath.Clean(p); !seen[c] {
			seen[c] = true
			out = append(out, p)
		}
	}
	for _, a := range args {
		fi, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !fi.IsDir() {
			add(a)
			continue
		}
		ents, err := os.ReadDir(a)
		if err != nil {
			return nil, err
		}
		var names []string
		for _, e := range ents {
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".txt") {
				names = append(names, e.Name())
			}
		}
		if len(names) == 0 {
			return nil, fmt.Errorf("%s: no *.txt results files in the directory", a)
		}
		slices.SortFunc(names, func(a, b string) int {
			return naturalCompare(strings.TrimSuffix(a, ".txt"), strings.TrimSuffix(b, ".txt"))
		})
		for _, n := range names {
			add(filepath.Join(a, n))
		}
	}
	return out, nil
}

// naturalCompare orders strings as people do: runs of digits by their
// value, the rest byte-wise.
func naturalCompare(a, b string) int {
	for a != "" && b != "" {
		da, db := digits(a), digits(b)
		if da > 0 && db > 0 {
			x, y := strings.TrimLeft(a[:da], "0"), strings.TrimLeft(b[:db], "0")
			if c := cmp.Compare(len(x), len(y)); c != 0 {
				return c
			}
			if c := strings.Compare(x, y); c != 0 {
				return c
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return cmp.Compare(a[0], b[0])
		}
		a, b = a[1:], b[1:]
	}
	return cmp.Compare(len(a), len(b))
}

// digits is the length of the run of ASCII digits s starts with.
func digits(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}
