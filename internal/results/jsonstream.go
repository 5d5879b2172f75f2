package results

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
)

// A FoldedFile is an input file and its folded runs, in the order of the
// document (NewJSONFile).
type FoldedFile struct {
	Name   string
	Folded []Folded
}

// WriteJSONFolded writes the document of the files' runs and the merged
// runs, {"schema": JSONSchema, "files": …, "merged": …}, indented by two
// spaces with a final newline and < and & as they are, byte for byte as
// json.Encoder writes the whole JSONDoc (resultstest.WriteJSON, which the
// tests hold it against), but one run at a time: memory holds one run's
// JSON, not the document's.
func WriteJSONFolded(w io.Writer, files []FoldedFile, merged []Folded) error {
	bw := bufio.NewWriter(w)
	j := jsonStream{w: bw}
	j.raw("{\n  \"schema\": ")
	j.value(JSONSchema, "  ")
	j.raw(",\n  \"files\": ")
	j.array(len(files), "  ", func(i int, prefix string) {
		j.raw("{\n" + prefix + "  \"name\": ")
		j.value(files[i].Name, prefix+"  ")
		j.raw(",\n" + prefix + "  \"runs\": ")
		j.array(len(files[i].Folded), prefix+"  ", func(k int, prefix string) {
			j.value(NewJSONRun(files[i].Folded[k]), prefix)
		})
		j.raw("\n" + prefix + "}")
	})
	if len(merged) > 0 {
		j.raw(",\n  \"merged\": ")
		j.array(len(merged), "  ", func(k int, prefix string) {
			j.value(NewJSONRun(merged[k]), prefix)
		})
	}
	j.raw("\n}\n")
	if j.err != nil {
		return j.err
	}
	return bw.Flush()
}

// jsonStream writes a JSON document piece by piece, indented as
// json.Encoder with SetIndent("", "  ") does; the first error sticks.
type jsonStream struct {
	w   *bufio.Writer
	err error
}

func (j *jsonStream) raw(s string) {
	if j.err == nil {
		_, j.err = j.w.WriteString(s)
	}
}

// value writes v as the encoder would at the depth whose lines start
// with prefix.
func (j *jsonStream) value(v any, prefix string) {
	if j.err != nil {
		return
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent(prefix, "  ")
	if j.err = enc.Encode(v); j.err == nil {
		_, j.err = j.w.Write(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
	}
}

// array writes an array of n elements at the depth of prefix, each by
// elem with the prefix of its own depth.
func (j *jsonStream) array(n int, prefix string, elem func(i int, prefix string)) {
	if n == 0 {
		j.raw("[]")
		return
	}
	j.raw("[")
	for i := range n {
		if i > 0 {
			j.raw(",")
		}
		j.raw("\n" + prefix + "  ")
		elem(i, prefix+"  ")
	}
	j.raw("\n" + prefix + "]")
}
