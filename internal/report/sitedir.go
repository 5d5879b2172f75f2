package report

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/beff-suite/beff/internal/results"
)

// A siteDir is a new site being written beside the directory it will
// replace. The files of the old site that beff report did not write (a
// person's notes, a web server's configuration) move into the new one:
// report never deletes what it did not write.
type siteDir struct {
	dir, tmp string
	exists   bool     // dir exists (and may be replaced)
	written  []string // the new site's files, slash-separated, relative
	kept     []string // the old site's files that report did not write
	keep     map[string]bool
}

// ErrRefusedDir is why Write refuses a directory: it holds something
// else than a site, or is no directory.
var ErrRefusedDir = errors.New("not replacing it")

// manifestName is the file of a site that lists the files report wrote
// there, one path a line, so that the next report over it knows which
// files are its own.
const manifestName = ".beff-report-files"

// newSiteDir checks that dir may be replaced (it does not exist, is
// empty, or holds a site) and makes the directory beside it that the
// site is written to.
func newSiteDir(dir string) (*siteDir, error) {
	w := &siteDir{dir: filepath.Clean(dir)}
	if fi, err := os.Stat(w.dir); err == nil {
		if !fi.IsDir() {
			return nil, fmt.Errorf("writing the site: %s exists and is not a directory: %w", w.dir, ErrRefusedDir)
		}
		ok, err := replaceable(w.dir)
		if err != nil {
			return nil, fmt.Errorf("writing the site: %w", err)
		}
		if !ok {
			return nil, fmt.Errorf("writing the site: %s is neither empty nor a site of beff report: %w", w.dir, ErrRefusedDir)
		}
		w.exists = true
		if w.kept, err = othersIn(w.dir); err != nil {
			return nil, fmt.Errorf("writing the site: %w", err)
		}
		w.keep = map[string]bool{}
		for _, k := range w.kept {
			w.keep[k] = true
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("writing the site: %w", err)
	}
	parent := filepath.Dir(w.dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("writing the site: %w", err)
	}
	tmp, err := os.MkdirTemp(parent, ".beff-report-*")
	if err != nil {
		return nil, fmt.Errorf("writing the site: %w", err)
	}
	w.tmp = tmp
	return w, nil
}

// put writes one file of the site.
func (w *siteDir) put(name string, b []byte) error {
	if w.keep[name] {
		return fmt.Errorf("writing the site: %s holds %s, which beff report did not write and the new site needs: move it away: %w",
			w.dir, name, ErrRefusedDir)
	}
	p := filepath.Join(w.tmp, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("writing the site: %w", err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		return fmt.Errorf("writing the site: %w", err)
	}
	w.written = append(w.written, name)
	return nil
}

// discard removes what is left of the new site (nothing after swapIn).
func (w *siteDir) discard() { os.RemoveAll(w.tmp) }

// swapIn puts the new site, with its manifest and the old site's files
// that report did not write, in the place of dir.
func (w *siteDir) swapIn() error {
	if err := w.put(manifestName, []byte(strings.Join(w.written, "\n")+"\n")); err != nil {
		return err
	}
	if err := os.Chmod(w.tmp, 0o755); err != nil {
		return fmt.Errorf("writing the site: %w", err)
	}
	if !w.exists {
		if err := os.Rename(w.tmp, w.dir); err != nil {
			return fmt.Errorf("writing the site: %w", err)
		}
		return nil
	}
	old := w.tmp + "-old"
	if err := os.Rename(w.dir, old); err != nil {
		return fmt.Errorf("writing the site: %w", err)
	}
	if err := moveAll(old, w.tmp, w.kept); err != nil {
		moveAll(w.tmp, old, w.kept)
		os.Rename(old, w.dir) // put the old site back, with every file
		return fmt.Errorf("writing the site: %w", err)
	}
	if err := os.Rename(w.tmp, w.dir); err != nil {
		moveAll(w.tmp, old, w.kept)
		os.Rename(old, w.dir)
		return fmt.Errorf("writing the site: %w", err)
	}
	return os.RemoveAll(old) // the old site's own files only
}

// moveAll moves the files names (slash-separated, relative) from the
// directory from to the directory to, stopping at the first error; a
// file already moved stays moved.
func moveAll(from, to string, names []string) error {
	for _, n := range names {
		src, dst := filepath.Join(from, filepath.FromSlash(n)), filepath.Join(to, filepath.FromSlash(n))
		if _, err := os.Lstat(src); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := os.Rename(src, dst); err != nil {
			return err
		}
	}
	return nil
}

// replaceable reports whether dir is empty or holds a site.
func replaceable(dir string) (bool, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return false, err
	}
	if len(ents) == 0 {
		return true, nil
	}
	b, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		return false, nil
	}
	return bytes.Contains(b, []byte(generator)), nil
}

// othersIn lists the files of the site in dir that report did not write:
// those its manifest does not name (all outside report's layout, a
// manifest being a file anyone can edit), or, for a site written before
// manifests, those outside report's layout.
func othersIn(dir string) ([]string, error) {
	own, err := manifest(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		if name := filepath.ToSlash(rel); !own(name) {
			out = append(out, name)
		}
		return nil
	})
	return out, err
}

// inLayout reports whether name is where report writes its files:
// index.html, compare.html, its manifest, runs/ and assets/.
func inLayout(name string) bool {
	top, _, nested := strings.Cut(name, "/")
	return name == "index.html" || name == "compare.html" || name == manifestName || nested && (top == "runs" || top == "assets")
}

// MaxManifest bounds the bytes of a site's manifest read back: a site of
// DefaultRunPages pages lists about 80 KB.
const MaxManifest = 64 << 20

// manifest reads the manifest of the site in dir and returns whether a
// file is the site's own: named there and in report's layout (without a
// manifest: in the layout).
func manifest(dir string) (func(string) bool, error) {
	p := filepath.Join(dir, manifestName)
	if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
		return inLayout, nil
	}
	f, _, err := results.OpenRegular(p) // not a pipe or a device, waited for or read for ever
	if err != nil {
		return nil, fmt.Errorf("%w: %w", err, ErrRefusedDir)
	}
	defer f.Close()
	own := map[string]bool{manifestName: true}
	sc := bufio.NewScanner(io.LimitReader(f, MaxManifest)) // beyond: kept, not deleted
	for sc.Scan() {
		if n := path.Clean(sc.Text()); inLayout(n) {
			own[n] = true
		}
	}
	if sc.Err() != nil {
		return nil, fmt.Errorf("%s: %v: not written by beff report: %w", p, sc.Err(), ErrRefusedDir)
	}
	return func(name string) bool { return own[name] }, nil
}
