package report

import (
	"bytes"
	"encoding/json"
	"html/template"
	"path/filepath"

	"github.com/beff-suite/beff/internal/results"
)

// pageInfo is what every page shows.
type pageInfo struct {
	Root       string // the site's root relative to the page: "" or "../"
	Page       string // index, run or compare: selects the glue code
	Title      string
	Brand      string // the suites of the site: "b_eff and b_eff_io"
	Generator  template.HTML
	Now        string // generation time, RFC 3339
	Library    string // plotting library and version
	LibVersion string
	NRuns      int // entries, files and skipped files of the site
	NFiles     int
	NSkipped   int
	NPages     int // run pages: NRuns, or the newest NPages runs
}

// A suiteInfo is a suite with pages, as the templates see it.
type suiteInfo struct {
	Name, Key, Anchor string
	Columns           []columnInfo
	Controls          template.HTML
}

// A columnInfo is an index column as the templates see it.
type columnInfo struct {
	Column
	// Rank names the column in the ranking: <suite key>.<figure>.
	Rank string
	// Better is "higher" or "lower", from the suite's FoldUnits; "" for
	// a unit the suite does not declare (the ranking leaves it out).
	Better string
	// Weight is the ranking's default weight: 1 for the site's first
	// column, 0 for the others.
	Weight int
}

// withPages lists the suites of the site that have pages, with the index
// in the suite list of each (computed once per site).
func (s *Site) withPages() ([]suiteInfo, []int) {
	if s.pageInfos != nil {
		return s.pageInfos, s.pageIndex
	}
	out := []suiteInfo{}
	var index []int
	for i, su := range s.Suites {
		if pg := pages(su); pg != nil {
			key, anchor := pg.SiteKeys()
			info := suiteInfo{Name: su.ID().Name, Key: key, Anchor: anchor}
			for _, c := range pg.Columns() {
				col := columnInfo{Column: c, Rank: key + "." + c.Figure, Better: su.ID().FoldBetter(c.Unit)}
				if len(out) == 0 && len(info.Columns) == 0 {
					col.Weight = 1
				}
				info.Columns = append(info.Columns, col)
			}
			out = append(out, info)
			index = append(index, i)
		}
	}
	s.pageInfos, s.pageIndex = out, index
	return out, index
}

type indexPage struct {
	pageInfo
	Suites  []suiteInfo
	RunIs   string // what a run of the site is
	Rows    []row
	Skipped []skippedRow
	Repeats []string
}

type skippedRow struct{ File, Reason string }

// A row is an entry in the tables of the index and the comparison page.
type row struct {
	ID, File, Base       string
	Index, Procs         int
	Hosts, Date, Library string
	// Cells are the index columns of every suite with pages, in order.
	Cells []cell
	// Has says which suites with pages the entry has.
	Has      []has
	Valid    bool
	Reasons  []string
	Verdicts []Verdict // each suite's validity
	Page     bool      // the entry has a page (and is on the comparison page)
}

// A cell is a figure in a table: absent (–) where the entry lacks it.
type cell struct {
	Has   bool
	Value float64
	First bool   // the suite's first column: also on the comparison page
	Rank  string // the column's name in the ranking (columnInfo.Rank)
	Valid bool   // the suite's run is valid (the ranking uses valid figures only)
}

// has says whether an entry has a suite: the run attribute data-<Key>.
type has struct {
	Key string
	Has bool
}

func (s *Site) newRow(e *Entry) row {
	reasons := e.Reasons(s.Suites)
	r := row{ID: e.ID, File: e.File, Base: filepath.Base(e.File), Index: e.Index, Procs: e.Procs(),
		Hosts: e.Hosts(), Date: e.Date(), Library: e.MPILibrary(), Valid: len(reasons) == 0, Reasons: reasons, Verdicts: e.Verdicts(s.Suites), Page: s.hasPage[e]}
	infos, index := s.withPages()
	for k, info := range infos {
		p := e.Folded[index[k]]
		r.Has = append(r.Has, has{info.Key, p != nil})
		valid := p != nil && len(pages(s.Suites[index[k]]).SiteReasons(p)) == 0
		for j, col := range info.Columns {
			c := cell{First: j == 0, Rank: col.Rank, Valid: valid}
			if p != nil {
				c.Value, c.Has = figure(p, col.Figure)
			}
			r.Cells = append(r.Cells, c)
		}
	}
	return r
}

// figure looks up the value of the named figure of p.
func figure(p results.Folded, name string) (float64, bool) {
	for _, f := range p.Figures() {
		if f.Name == name {
			return f.Value, true
		}
	}
	return 0, false
}

func (s *Site) indexPage(info pageInfo) indexPage {
	p := indexPage{pageInfo: info}
	p.Suites, _ = s.withPages()
	var kth []string
	for _, su := range s.Suites {
		kth = append(kth, "the k-th "+su.ID().Name+" run")
	}
	p.RunIs = results.JoinWith(kth, "and")
	for _, e := range s.Entries {
		p.Rows = append(p.Rows, s.newRow(e))
	}
	for _, sk := range s.Skipped {
		p.Skipped = append(p.Skipped, skippedRow{File: sk.File, Reason: sk.Error()})
	}
	p.Repeats = s.Repeats
	return p
}

type comparePage struct {
	pageInfo
	Suites []suiteInfo
	Rows   []row
	Data   compareData
}

// compareData is the JSON of the comparison page.
type compareData struct {
	Runs []compareRun `json:"runs"`
}

// A compareRun is an entry on the comparison page: its name, its page and
// the plot data of every suite it has.
type compareRun struct {
	ID      string
	Label   string
	Href    string
	Machine string // its hosts without their process counts, and its MPI library: one machine at every process count
	Plots   plots
}

// MarshalJSON writes {"id", "label", "href", "machine", then the plot
// data of each suite under its key}.
func (r compareRun) MarshalJSON() ([]byte, error) {
	head := struct {
		ID      string `json:"id"`
		Label   string `json:"label"`
		Href    string `json:"href"`
		Machine string `json:"machine"`
	}{r.ID, r.Label, r.Href, r.Machine}
	return r.Plots.appendTo(head)
}

// plots are the plot data of an entry's suites, in suite order; a nil
// value leaves its key out.
type plots []plot

type plot struct {
	Key  string
	Data any
}

// appendTo marshals head, an object, and appends the plots' keys to it.
func (ps plots) appendTo(head any) ([]byte, error) {
	b, err := json.Marshal(head)
	if err != nil {
		return nil, err
	}
	out := bytes.TrimSuffix(b, []byte("}"))
	for _, p := range ps {
		if p.Data == nil {
			continue
		}
		key, err := json.Marshal(p.Key)
		if err != nil {
			return nil, err
		}
		data, err := json.Marshal(p.Data)
		if err != nil {
			return nil, err
		}
		out = append(append(append(append(out, ','), key...), ':'), data...)
	}
	return append(out, '}'), nil
}

// plotsOf returns the plot data of entry e.
func (s *Site) plotsOf(e *Entry) plots {
	var ps plots
	for i, su := range s.Suites {
		if pg := pages(su); pg != nil {
			key, _ := pg.SiteKeys()
			var data any
			if e.Folded[i] != nil {
				data = pg.PlotData(e.Folded[i])
			}
			ps = append(ps, plot{key, data})
		}
	}
	return ps
}

func (s *Site) comparePage(info pageInfo) (comparePage, error) {
	p := comparePage{pageInfo: info}
	var index []int
	p.Suites, index = s.withPages()
	for k := range p.Suites {
		c, err := pages(s.Suites[index[k]]).Controls()
		if err != nil {
			return p, err
		}
		p.Suites[k].Controls = c
	}
	for _, e := range s.Entries {
		if !s.hasPage[e] {
			continue
		}
		p.Rows = append(p.Rows, s.newRow(e))
		p.Data.Runs = append(p.Data.Runs, compareRun{ID: e.ID, Label: e.Label(), Href: "runs/" + e.ID + ".html", Machine: e.Machine(), Plots: s.plotsOf(e)})
	}
	return p, nil
}

// runPage is an entry's page.
type runPage struct {
	pageInfo
	Entry    *Entry
	Row      row
	Sections []section
	Text     string // the protocols as beff fold prints them
	Data     runData
}

// A section is a suite's part of a run page: empty where the entry lacks
// the suite.
type section struct {
	Name, Anchor string
	HTML         template.HTML
}

// runData is the JSON of a run's page.
type runData struct {
	ID    string
	Label string
	Plots plots
}

// MarshalJSON writes {"id", "label", then the plot data of each suite
// under its key}.
func (d runData) MarshalJSON() ([]byte, error) {
	head := struct {
		ID    string `json:"id"`
		Label string `json:"label"`
	}{d.ID, d.Label}
	return d.Plots.appendTo(head)
}

func (s *Site) runPage(e *Entry, info pageInfo) (*runPage, error) {
	p := &runPage{pageInfo: info, Entry: e, Row: s.newRow(e),
		Data: runData{ID: e.ID, Label: e.Label(), Plots: s.plotsOf(e)}}
	var text bytes.Buffer
	for i, su := range s.Suites {
		f := e.Folded[i]
		if f != nil {
			if text.Len() > 0 {
				text.WriteString("\n\n")
			}
			if err := f.WriteText(&text); err != nil {
				return nil, err
			}
		}
		pg := pages(su)
		if pg == nil {
			continue
		}
		_, anchor := pg.SiteKeys()
		sec := section{Name: su.ID().Name, Anchor: anchor}
		if f != nil {
			html, err := pg.Section(f)
			if err != nil {
				return nil, err
			}
			sec.HTML = html
		}
		p.Sections = append(p.Sections, sec)
	}
	p.Text = text.String()
	return p, nil
}
