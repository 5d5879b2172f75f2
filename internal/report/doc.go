// Package report renders results as a static web site: the report
// generator and result database of the seed ("pick machines and runs,
// pick suites, and see them in one plot, zoomable and downloadable"). It
// works over the list of suites it is given and names none: a suite that
// implements Pages brings its columns, its section of a run page, its
// controls and plot data on the comparison page, and its drawing code; any
// other suite shows with its validity and its protocol.
//
// The pipeline has two steps:
//
//  1. Load (load.go) reads each results file with results.ReadFile and
//     folds every run in it with its suite. A file that does not read or
//     fold completely is skipped as a whole, with the reason
//     ("file:line: msg"), never half used. The k-th run of every suite in
//     a file form the k-th Entry of the site (the output of one `make
//     bench`).
//  2. Site.Render (site.go, page.go) renders the pages with html/template,
//     and Site.Write writes them with the assets into a fresh directory
//     that then replaces the target (which must be absent, empty or an
//     earlier site):
//     - index.html: every entry in a sortable table (file, run, machine,
//     date, processes, MPI library, the suites' columns, validity) and the
//     skipped files;
//     - runs/<id>.html: per entry the facts, each suite's section
//     (Pages.Section) and the protocols as beff fold prints them;
//     - compare.html: entries picked by checkbox overlaid in one plot for
//     one suite, chosen with the suite's controls (Pages.Controls),
//     zoomable, downloadable as SVG or PNG.
//
// The site works offline and from file://: every asset is in the site
// (assets/), and each page carries its data inline as JSON in a
// <script type="application/json"> element, which html/template escapes
// (each suite's Pages.PlotData under the suite's key). The plots are drawn
// by plotly.js (basic bundle, MIT), which `make assets` fetches into
// assets/vendor/ and which is embedded into the binary (assets.go);
// assets/report.js sorts the tables and runs the pages, and each suite's
// Pages.Script, appended to it, registers the suite's drawing code. Labels
// from the results files (host names, MPI strings, file names) are text
// everywhere: escaped by html/template in the pages, set with textContent
// by the glue code, and entity-escaped for plotly, which interprets a
// subset of HTML in its labels.
//
// The output is deterministic except for the generation time, which
// Options.Now sets.
package report
