package e2e

import (
	"flag"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/harness"
	"github.com/beff-suite/beff/internal/exitcode"
	beff "github.com/beff-suite/beff/suites/beff/driver"
	beffio "github.com/beff-suite/beff/suites/beffio/driver"
	congestion "github.com/beff-suite/beff/suites/congestion/driver"
	links "github.com/beff-suite/beff/suites/links/driver"
	skampi "github.com/beff-suite/beff/suites/skampi/driver"
)

// binaryFlags are the flags of the benchmark binary besides testing's: its
// suites' drivers' and the harness's, put on a flag set as the root
// package's TestMain puts them on its own.
func binaryFlags() *flag.FlagSet {
	fs := flag.NewFlagSet("beff.test", flag.ContinueOnError)
	beff.New(fs)
	beffio.New(fs)
	skampi.New(fs)
	congestion.New(fs)
	links.New(fs)
	harness.Flags(fs)
	return fs
}

// flagsDocPath is the reference of every flag of the test binary besides
// Go's own -test.* flags: written from the flags themselves, so that it
// lists each one, and none that is gone.
const flagsDocPath = "docs/flags.md"

// flagGroups title the flags by their prefix, in the order of the page.
var flagGroups = []struct{ prefix, title, intro string }{
	{"beff.", "b_eff", "The effective communication bandwidth ([beff.md](beff.md))."},
	{"beffio.", "b_eff_io", "The effective I/O bandwidth ([beffio.md](beffio.md))."},
	{"skampi.", "SKaMPI", "Single operations, SKaMPI's way ([skampi.md](skampi.md)); the suite file's settings, where a flag gives them too, are overridden by the flag."},
	{"congestion.", "congestion", "What the network delivers while others use it: canaries isolated and beside congestors ([congestion.md](congestion.md))."},
	{"links.", "links", "Every pair of nodes (or processes), the slow node and the slow link ([links.md](links.md))."},
	{"", "The harness", "Every suite's job: the MPI thread level and the results file."},
}

// flagsDoc renders the page from the flags of this binary.
func flagsDoc() string {
	var b strings.Builder
	b.WriteString("# Flags of the test binary\n\n")
	b.WriteString("<!-- Written by TestFlagsDoc from the binary's own flags (BEFF_UPDATE=1 go test -run '^TestFlagsDoc$' ./e2e); edit the flags' usage, not this page. -->\n\n")
	b.WriteString("The flags of `beff.test` (and of `go test -bench` of the module's root package) beside Go's own `-test.*` flags\n")
	b.WriteString("(`-test.bench`, `-test.short` for a quick run, `-test.count`, …). Give them after `--` to `beff run`\n")
	b.WriteString("(`make bench ARGS='…'`) or straight to the binary under `mpirun`. Only rank 0 checks them; a bad value is one\n")
	b.WriteString("line from rank 0 and exit code 2 from every rank. Flags that say \"for tests only\" corrupt or slow a run on\n")
	b.WriteString("purpose.\n")
	var all []*flag.Flag
	binaryFlags().VisitAll(func(f *flag.Flag) {
		if !strings.HasPrefix(f.Name, "test.") {
			all = append(all, f)
		}
	})
	sort.Slice(all, func(i, j int) bool { return strings.ToLower(all[i].Name) < strings.ToLower(all[j].Name) })
	for _, g := range flagGroups {
		var rows []*flag.Flag
		for _, f := range all {
			if groupOf(f.Name) == g.prefix {
				rows = append(rows, f)
			}
		}
		if len(rows) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n## %s\n\n%s\n\n| flag | default | meaning |\n|---|---|---|\n", g.title, g.intro)
		for _, f := range rows {
			name, usage := flag.UnquoteUsage(f)
			arg := "-" + f.Name
			if name != "" {
				arg += " " + name
			}
			def := f.DefValue
			if def == "" {
				def = "–"
			} else {
				def = "`" + def + "`"
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s |\n", arg, def, strings.ReplaceAll(usage, "|", "\\|"))
		}
	}
	return b.String()
}

// groupOf is the prefix of a flag's group ("" for the harness's).
func groupOf(name string) string {
	for _, g := range flagGroups {
		if g.prefix != "" && strings.HasPrefix(name, g.prefix) {
			return g.prefix
		}
	}
	return ""
}

// TestFlagsDoc: docs/flags.md lists every flag of the binary as the
// flags themselves describe it (BEFF_UPDATE=1 rewrites it), and the
// README points to it.
func TestFlagsDoc(t *testing.T) {
	got := flagsDoc()
	if os.Getenv("BEFF_UPDATE") == "1" {
		require.NoError(t, os.WriteFile(flagsDocPath, []byte(got), 0o644))
	}
	want, err := os.ReadFile(flagsDocPath)
	require.NoError(t, err)
	assert.Equal(t, string(want), got, "%s is not the binary's flags: BEFF_UPDATE=1 go test -run '^TestFlagsDoc$' ./e2e", flagsDocPath)
	binaryFlags().VisitAll(func(f *flag.Flag) {
		if !strings.HasPrefix(f.Name, "test.") {
			assert.Contains(t, got, "`-"+f.Name, "every flag is on the page")
		}
	})
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	assert.Contains(t, string(readme), "(docs/flags.md)", "the README links the flags")
}

// TestDocLinks: every relative link of the README and the docs names a
// file that exists and, with #anchor, a heading of that file (GitHub's
// anchors: lower case, punctuation but '-' and '_' dropped, spaces '-').
func TestDocLinks(t *testing.T) {
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	for _, page := range docPages(t) {
		text, err := os.ReadFile(page)
		require.NoError(t, err)
		for _, m := range link.FindAllStringSubmatch(string(text), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			path := page
			if file != "" {
				path = filepath.Join(filepath.Dir(page), file)
			}
			if _, err := os.Stat(path); err != nil {
				t.Errorf("%s: link %s: %v", page, target, err)
				continue
			}
			if anchor != "" && !slices.Contains(anchors(t, path), anchor) {
				t.Errorf("%s: link %s: no heading with that anchor in %s", page, target, path)
			}
		}
	}
}

// anchors are the GitHub anchors of the headings of a markdown file.
func anchors(t *testing.T, path string) []string {
	text, err := os.ReadFile(path)
	require.NoError(t, err)
	var out []string
	inCode := false
	for _, l := range strings.Split(string(text), "\n") {
		if strings.HasPrefix(l, "```") {
			inCode = !inCode
		}
		if inCode || !strings.HasPrefix(l, "#") {
			continue
		}
		h := strings.ToLower(strings.TrimSpace(strings.TrimLeft(l, "#")))
		var b strings.Builder
		for _, r := range h {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		out = append(out, b.String())
	}
	return out
}

// exitCodesMarker heads the README's table of exit codes.
const exitCodesMarker = "<!-- internal/exitcode's Table: TestExitCodesDoc"

// exitCodesDoc renders the table of exit codes as the README shows it.
func exitCodesDoc() string {
	var b strings.Builder
	b.WriteString("| code | meaning |\n|---|---|\n")
	for _, c := range exitcode.Table {
		code := strconv.Itoa(c.Code)
		if c.Code == exitcode.Signal {
			code = "128+n"
		}
		fmt.Fprintf(&b, "| %s | %s |\n", code, c.Meaning)
	}
	return b.String()
}

// TestExitCodesDoc: the README's table of exit codes is package
// exitcode's (BEFF_UPDATE=1 rewrites it), and no code has two rows.
func TestExitCodesDoc(t *testing.T) {
	seen := map[int]bool{}
	for _, c := range exitcode.Table {
		assert.False(t, seen[c.Code], "code %d has one meaning", c.Code)
		seen[c.Code] = true
		assert.True(t, c.Code == exitcode.Signal || exitcode.Known(c.Code), c.Name)
	}
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	text := string(readme)
	at := strings.Index(text, exitCodesMarker)
	require.GreaterOrEqual(t, at, 0, "the README has the table")
	start := at + strings.Index(text[at:], "\n") + 1
	end := start + strings.Index(text[start:], "\n\n") + 1
	if os.Getenv("BEFF_UPDATE") == "1" {
		text = text[:start] + exitCodesDoc() + text[end:]
		end = start + len(exitCodesDoc())
		require.NoError(t, os.WriteFile("README.md", []byte(text), 0o644))
	}
	assert.Equal(t, exitCodesDoc(), text[start:end], "README.md's exit codes are not package exitcode's: BEFF_UPDATE=1 go test -run '^TestExitCodesDoc$' ./e2e")
}

// makeCall finds the target of a make command in a line of code: `make
// bench`, `salloc … make beff`, `make --no-print-directory build`, `make
// MPI=mpich test-mpi`.
var makeCall = regexp.MustCompile(`(?:^|[\s;&|(])make((?:\s+(?:-\S+|[A-Z_]+=\S+))*)\s+([a-z][a-z0-9-]*)`)

// TestMakeTargets: every make target the Makefile's help, the README, the
// docs and the scripts show as a command is a rule of the Makefile.
func TestMakeTargets(t *testing.T) {
	text, err := os.ReadFile("Makefile")
	require.NoError(t, err)
	rules := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^([a-z][a-z0-9-]*):`).FindAllStringSubmatch(string(text), -1) {
		rules[m[1]] = true
	}
	var code []string // lines of code and commands
	for _, l := range strings.Split(string(text), "\n") {
		if c, ok := strings.CutPrefix(l, "#   "); ok {
			code = append(code, c)
		}
	}
	inline := regexp.MustCompile("`([^`\n]+)`")
	for _, page := range docPages(t) {
		for _, l := range pageLines(t, page) {
			if l.fenced {
				code = append(code, l.text)
				continue
			}
			for _, m := range inline.FindAllStringSubmatch(l.text, -1) {
				code = append(code, m[1])
			}
		}
	}
	scripts, err := filepath.Glob("tools/*.s*")
	require.NoError(t, err)
	for _, s := range scripts { // their commands, not their comments or word lists
		b, err := os.ReadFile(s)
		require.NoError(t, err)
		for _, l := range strings.Split(string(b), "\n") {
			if l = strings.TrimSpace(l); strings.HasPrefix(l, "make ") {
				code = append(code, l)
			}
		}
	}
	seen := 0
	for _, c := range code {
		for _, m := range makeCall.FindAllStringSubmatch(c, -1) {
			seen++
			assert.True(t, rules[m[2]], "make %s is shown as a command (%q) but the Makefile has no rule %s", m[2], c, m[2])
		}
	}
	assert.Greater(t, seen, 50, "the commands were found")
}

// TestMakeDebianPackages: what make installs from Debian where no MPI is
// found (deps-mpi, deps) is Debian's packages of the library MPI names,
// whatever else the Makefile defines later (a variable defined twice takes
// its last definition in every recipe).
func TestMakeDebianPackages(t *testing.T) {
	for mpi, want := range map[string]string{"": "openmpi-bin libopenmpi-dev", "openmpi": "openmpi-bin libopenmpi-dev", "mpich": "mpich libmpich-dev"} {
		out, err := exec.Command("make", "--no-print-directory", "--eval", "print-mpi-pkgs: ; @echo $(MPI_PKGS)", "print-mpi-pkgs", "MPI="+mpi).CombinedOutput()
		require.NoError(t, err, "%s", out)
		assert.Equal(t, want, strings.TrimSpace(string(out)), "MPI=%s", mpi)
	}
}

// TestAddingASuiteDoc: docs/adding-a-suite.md names every place outside
// its folder that the last suite of cmd/beff/suites.go needed — each file
// that imports one of its packages, its make target and its page — with
// the suite's name as <name> (e2e/<name>_test.go for e2e/congestion_test.go).
func TestAddingASuiteDoc(t *testing.T) {
	list, err := os.ReadFile("cmd/beff/suites.go")
	require.NoError(t, err)
	folds := regexp.MustCompile(`(?m)^\s+(\w+)fold\.New\(\),`).FindAllStringSubmatch(string(list), -1)
	require.NotEmpty(t, folds)
	name := folds[len(folds)-1][1]
	doc, err := os.ReadFile("docs/adding-a-suite.md")
	require.NoError(t, err)
	places := []string{"docs/" + name + ".md", "docs/flags.md", "docs/fold-json.md", "README.md"}
	makefile, err := os.ReadFile("Makefile")
	require.NoError(t, err)
	if regexp.MustCompile(`(?m)^` + name + `:`).Match(makefile) {
		places = append(places, "make "+name)
	}
	imports := `"github.com/beff-suite/beff/suites/` + name
	err = filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (path == "suites/"+name || path == "results" || path == "vendor" || strings.HasPrefix(d.Name(), ".")) && path != "." {
			return filepath.SkipDir
		}
		if strings.HasSuffix(path, ".go") {
			b, err := os.ReadFile(path)
			if err == nil && strings.Contains(string(b), imports) {
				places = append(places, path)
			}
		}
		return nil
	})
	require.NoError(t, err)
	require.Greater(t, len(places), 6, "the places were found")
	for _, p := range places {
		general := strings.ReplaceAll(p, name, "<name>")
		assert.True(t, strings.Contains(string(doc), "`"+general+"`") || strings.Contains(string(doc), "`"+p+"`"),
			"docs/adding-a-suite.md does not name %s, which the suite %s needed (as `%s`)", p, name, general)
	}
}

// TestSharedFixtures: a fixture that several packages read from their
// testdata (a results file, a suite file, a reference output) is one
// file: every copy of a name is byte-identical (BEFF_UPDATE=1 rewrites
// the copies of a fixture made from code together).
func TestSharedFixtures(t *testing.T) {
	copies := map[string][]string{}
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "fuzz" || d.Name() == "results" || d.Name() == "vendor" || (strings.HasPrefix(d.Name(), ".") && path != ".")) {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.Contains(filepath.ToSlash(path), "testdata/") {
			copies[d.Name()] = append(copies[d.Name()], path)
		}
		return nil
	})
	require.NoError(t, err)
	shared := 0
	for name, paths := range copies {
		if len(paths) < 2 {
			continue
		}
		shared++
		first, err := os.ReadFile(paths[0])
		require.NoError(t, err)
		for _, p := range paths[1:] {
			b, err := os.ReadFile(p)
			require.NoError(t, err)
			assert.True(t, string(b) == string(first), "%s and %s are copies of the fixture %s but differ", paths[0], p, name)
		}
	}
	assert.Greater(t, shared, 5, "the shared fixtures were found")
}

// TestPackageDocs: every package of the module says what it is in a
// package comment.
func TestPackageDocs(t *testing.T) {
	dirs := map[string]bool{}
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != "." && (d.Name() == "testdata" || d.Name() == "vendor" || d.Name() == "results" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			dirs[filepath.Dir(path)] = true
		}
		return nil
	})
	require.NoError(t, err)
	require.Greater(t, len(dirs), 20)
	for dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		require.NoError(t, err)
		documented := false
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			file, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.PackageClauseOnly|parser.ParseComments)
			require.NoError(t, err)
			if file.Doc != nil && (strings.HasPrefix(file.Doc.Text(), "Package ") || strings.HasPrefix(file.Doc.Text(), "Command ")) {
				documented = true
			}
		}
		assert.True(t, documented, "package %s has no package comment (// Package … or // Command …)", dir)
	}
}

// TestArchitectureDoc: docs/architecture.md's table of packages has a row
// for every package of the module (a suite's as suites/<s>, …/driver,
// …/fold), and each row's imports name every package of beff it imports
// (its non-test files; e2e's tests); cmd/beff's row lists every command.
func TestArchitectureDoc(t *testing.T) {
	doc, err := os.ReadFile("docs/architecture.md")
	require.NoError(t, err)
	rows := map[string]string{} // package (generalized) → its imports cell
	tick := regexp.MustCompile("`([^`]+)`")
	for _, l := range strings.Split(string(doc), "\n") {
		cells := strings.Split(l, " | ")
		if !strings.HasPrefix(l, "| `") || len(cells) < 3 {
			continue
		}
		for _, m := range tick.FindAllStringSubmatch(cells[0], -1) {
			rows[m[1]] = cells[1]
		}
	}
	general := func(p string) string {
		p = strings.TrimPrefix(strings.TrimPrefix(p, "github.com/beff-suite/beff"), "/")
		if rest, ok := strings.CutPrefix(p, "suites/"); ok {
			_, sub, _ := strings.Cut(rest, "/")
			return strings.TrimSuffix("suites/<s>/"+sub, "/")
		}
		return p
	}
	imports := map[string]map[string]bool{}
	err = filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != "." && (d.Name() == "testdata" || d.Name() == "vendor" || d.Name() == "results" || d.Name() == "tools" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		if d.IsDir() || !strings.HasSuffix(path, ".go") || dir == "." || strings.HasSuffix(dir, "test") && dir != "e2e" ||
			strings.HasSuffix(path, "_test.go") && dir != "e2e" {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		require.NoError(t, err)
		pkg := general(dir)
		if imports[pkg] == nil {
			imports[pkg] = map[string]bool{}
		}
		for _, im := range f.Imports {
			if p := strings.Trim(im.Path.Value, `"`); strings.HasPrefix(p, "github.com/beff-suite/beff/") {
				imports[pkg][general(p)] = true
			}
		}
		return nil
	})
	require.NoError(t, err)
	require.Greater(t, len(imports), 10)
	for pkg, ims := range imports {
		cell, ok := rows[pkg]
		if !assert.True(t, ok, "docs/architecture.md has no row for %s", pkg) || pkg == "cmd/beff" {
			continue
		}
		for im := range ims {
			if im == pkg || strings.HasPrefix(im, "suites/") && strings.Contains(cell, "the drivers") {
				continue
			}
			assert.Contains(t, cell, "`"+im+"`", "docs/architecture.md: %s imports %s, which its row does not name", pkg, im)
		}
	}
	main, err := os.ReadFile("cmd/beff/main.go")
	require.NoError(t, err)
	cmdRow := regexp.MustCompile("(?m)^\\| `cmd/beff/` \\|(.*)$").FindSubmatch(doc)
	require.NotNil(t, cmdRow)
	for _, m := range regexp.MustCompile(`(?m)^\s+\{"([a-z-]+)", "`).FindAllSubmatch(main, -1) {
		assert.Contains(t, string(cmdRow[1]), "`"+string(m[1])+"`", "docs/architecture.md's cmd/beff/ row does not name the command %s", m[1])
	}
}

// docCommand is a command of the beff command in a code block of the
// README or the docs: `./beff VERB …`, `beff VERB …` or `go run ./cmd/beff
// VERB …`, up to a comment.
var docCommand = regexp.MustCompile(`^(?:\./beff|beff|go run \./cmd/beff) ([a-z][a-z-]*)((?:\s.*)?)$`)

// TestDocBeffCommands: every command of the beff command that the README
// and the docs show is a verb of the command, and each flag it gives
// (before a --, after which the flags are the test binary's) is one of
// that verb's.
func TestDocBeffCommands(t *testing.T) {
	bin := beffCommand(t)
	usage := map[string]string{}
	seen := 0
	for _, page := range docPages(t) {
		for _, pl := range pageLines(t, page) {
			l := pl.text
			code, _, _ := strings.Cut(l, "  #")
			m := docCommand.FindStringSubmatch(strings.TrimSpace(code))
			if !pl.fenced || m == nil {
				continue
			}
			verb := m[1]
			if _, ok := usage[verb]; !ok {
				out, _ := exec.Command(bin, verb, "-h").CombinedOutput()
				usage[verb] = string(out)
			}
			assert.Contains(t, usage[verb], "usage: beff "+verb, "%s: %q: beff has no verb %s", page, l, verb)
			own, _, _ := strings.Cut(m[2], " -- ")
			for _, w := range strings.Fields(own) {
				if !strings.HasPrefix(w, "-") || w == "-" || w == "--" {
					continue
				}
				name, _, _ := strings.Cut(strings.TrimLeft(w, "-"), "=")
				assert.Contains(t, usage[verb], "  -"+name, "%s: %q: beff %s has no flag -%s", page, l, verb, name)
			}
			seen++
		}
	}
	assert.Greater(t, seen, 15, "the commands were found")
}

// docPages are the README's and the docs' pages.
func docPages(t *testing.T) []string {
	pages, err := filepath.Glob("docs/*.md")
	require.NoError(t, err)
	return append(pages, "README.md", "results/README.md", "CONTRIBUTING.md")
}

// A pageLine is a line of a page, and whether it is in a code block.
type pageLine struct {
	text   string
	fenced bool
}

// pageLines are the lines of a page but the fences of its code blocks.
func pageLines(t *testing.T, page string) []pageLine {
	b, err := os.ReadFile(page)
	require.NoError(t, err)
	var out []pageLine
	fenced := false
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "```") {
			fenced = !fenced
			continue
		}
		out = append(out, pageLine{l, fenced})
	}
	return out
}
