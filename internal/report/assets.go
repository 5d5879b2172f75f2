package report

import (
	"bytes"
	"embed"
	"errors"
	"io/fs"
	"strings"

	"github.com/beff-suite/beff/internal/results"
)

// assetFS holds the glue code and style of the site (assets/report.js,
// assets/report.css) and, once `make assets` has run, the plotting library
// in assets/vendor/. The committed assets/vendor/README.md keeps the
// pattern valid without the library.
//
//go:embed assets
var assetFS embed.FS

// Paths of the plotting library inside assetFS.
const (
	vendorDir      = "assets/vendor"
	libraryPath    = vendorDir + "/plotly-basic.min.js"
	licensePath    = vendorDir + "/LICENSE"
	versionPath    = vendorDir + "/VERSION"
	libraryName    = "plotly.js-basic-dist-min"
	libraryFile    = "plotly-basic.min.js"
	libraryLicense = "plotly-LICENSE.txt"
)

// ErrNoLibrary is returned by EmbeddedLibrary, and so by Site.Write without
// Options.Library, when the binary was built without the plotting library.
var ErrNoLibrary = errors.New("the plotting library is not built into this binary " +
	"(internal/report/assets/vendor/" + libraryFile + " is missing): run `make assets`, then build beff again")

// A Library is the plotting library a site uses: plotly.js, basic bundle.
type Library struct {
	JS      []byte // plotly-basic.min.js
	License []byte // its license text
	Version string // e.g. 4.1.1
}

// EmbeddedLibrary returns the plotting library embedded at build time, or
// ErrNoLibrary.
func EmbeddedLibrary() (*Library, error) {
	js, err := fs.ReadFile(assetFS, libraryPath)
	if err != nil || len(js) == 0 {
		return nil, ErrNoLibrary
	}
	lic, err := fs.ReadFile(assetFS, licensePath)
	if err != nil {
		return nil, errors.New("the plotting library's LICENSE is missing from internal/report/assets/vendor: run `make assets`, then build beff again")
	}
	v, _ := fs.ReadFile(assetFS, versionPath)
	return &Library{JS: js, License: lic, Version: strings.TrimSpace(string(v))}, nil
}

// siteAssets returns the glue files of the site: name in assets/ →
// content. report.js is the generic glue code, then the script of every
// suite with pages, then the call that starts the page.
func siteAssets(suites []results.Suite) (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, name := range []string{"report.js", "report.css"} {
		b, err := fs.ReadFile(assetFS, "assets/"+name)
		if err != nil {
			return nil, err
		}
		out[name] = b
	}
	js := bytes.Clone(out["report.js"])
	for _, s := range suites {
		if pg := pages(s); pg != nil {
			js = append(append(js, '\n'), pg.Script()...)
		}
	}
	out["report.js"] = append(js, "\nbeffReport.start();\n"...)
	return out, nil
}
