// Package report renders b_eff and b_eff_io results as a static web site:
// the report generator and result database of SPEC §3.4 ("pick machines and
// runs, pick suites, and see them in one plot, zoomable and downloadable")
// for the figures of SPEC §1.8 and §2.8.
//
// The pipeline has two steps:
//
//  1. Load (load.go) reads each results file with fold.ReadFile and folds
//     every run in it with fold.Fold and fold.FoldIO. A file that does not
//     read or fold completely is skipped as a whole, with the reason
//     ("file:line: msg"), never half used. The k-th b_eff run and the k-th
//     b_eff_io run of a file form the k-th Run of the site (the output of
//     one `make bench`).
//  2. Site.Render (site.go) renders the pages with html/template, and
//     Site.Write writes them with the assets into a fresh directory that
//     then replaces the target (which must be absent, empty or an earlier
//     site):
//     - index.html: every run in a sortable table (file, run, machine, date,
//     processes, MPI library, b_eff, b_eff per process, b_eff_io, validity)
//     and the skipped files;
//     - runs/<id>.html: per run the figures, the b_eff plot (bandwidth per
//     process over the message size on the seed's equidistant size axis,
//     one curve per pattern class and per additional pattern, best method
//     or one method), the b_eff_io plots of SPEC §2.8 (3 diagrams, one
//     per access method, with a curve per pattern type; 5 diagrams, one
//     per pattern type, with a curve per access method; per partition),
//     the tables and the protocol text as beff fold prints it;
//     - compare.html: runs picked by checkbox overlaid in one plot for one
//     suite (b_eff: pattern or class and method; b_eff_io: partition,
//     pattern type and access method), zoomable, downloadable as SVG or
//     PNG.
//
// The site works offline and from file://: every asset is in the site
// (assets/), and each page carries its data inline as JSON in a
// <script type="application/json"> element, which html/template escapes
// (data.go computes it: the curves, the size axes). The plots are drawn by
// plotly.js (basic bundle, MIT), which `make assets` fetches into
// assets/vendor/ and which is embedded into the binary (assets.go); small
// glue code in assets/report.js sorts the tables and draws the plots.
// Labels from the results files (host names, MPI strings, file names) are
// text everywhere: escaped by html/template in the pages, set with
// textContent by the glue code, and entity-escaped for plotly, which
// interprets a subset of HTML in its labels.
//
// The output is deterministic except for the generation time, which
// Options.Now sets.
package report
