package fold

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/beff-suite/beff/suites/beff"
	"github.com/beff-suite/beff/suites/beffio"
)

// foldFile reads text and folds every run of both benchmarks.
func foldFile(t *testing.T, text, name string) (*File, []*Protocol, []*IOProtocol) {
	t.Helper()
	f, err := Read(strings.NewReader(text), name)
	require.NoError(t, err)
	var ps []*Protocol
	for _, r := range f.Runs {
		p, err := Fold(r)
		require.NoError(t, err)
		ps = append(ps, p)
	}
	var ios []*IOProtocol
	for _, r := range f.IORuns {
		p, err := FoldIO(r)
		require.NoError(t, err)
		ios = append(ios, p)
	}
	return f, ps, ios
}

// decodeStrict decodes data into a JSONDoc, refusing fields the types do
// not have.
func decodeStrict(t *testing.T, data []byte) JSONDoc {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var doc JSONDoc
	require.NoError(t, dec.Decode(&doc))
	return doc
}

// TestJSONRoundTrip writes the JSON of short-np2.txt, the hand-computed
// b_eff run and the synthetic b_eff_io file, decodes it into the Go types
// and checks the values against the protocols; encoding the decoded
// document again gives the same bytes.
func TestJSONRoundTrip(t *testing.T) {
	inputs := []struct{ name, text string }{
		{"short-np2.txt", readShortNP2(t)},
		{"hand.txt", handRun().text()},
		{"both.txt", handRun().text() + ioHand().text()},
	}
	var files []JSONFile
	var allPs [][]*Protocol
	var allIOs [][]*IOProtocol
	for _, in := range inputs {
		f, ps, ios := foldFile(t, in.text, in.name)
		files = append(files, NewJSONFile(f.Name, ps, ios))
		allPs, allIOs = append(allPs, ps), append(allIOs, ios)
	}
	var b bytes.Buffer
	require.NoError(t, WriteJSON(&b, files))
	require.True(t, json.Valid(b.Bytes()))
	assert.True(t, strings.HasSuffix(b.String(), "}\n"))

	doc := decodeStrict(t, b.Bytes())
	assert.Equal(t, JSONSchema, doc.Schema)
	require.Len(t, doc.Files, len(inputs))
	for i, jf := range doc.Files {
		ps, ios := allPs[i], allIOs[i]
		assert.Equal(t, inputs[i].name, jf.Name)
		require.Len(t, jf.Runs, len(ps)+len(ios))
		for k, p := range ps {
			jr := jf.Runs[k]
			assert.Equal(t, "b_eff", jr.Benchmark)
			assert.Equal(t, p.Run.Index, jr.Index)
			assert.Equal(t, p.Run.Line, jr.Line)
			assert.Nil(t, jr.BeffIO)
			checkCommon(t, jr, p.Figures(), p.Valid(), p.Reasons, p.Notes, p.Run.FileConfig)
			require.Len(t, jr.Experiments, len(p.Run.Measurements))
			for j, m := range p.Run.Measurements {
				e := jr.Experiments[j]
				assert.Equal(t, m.Key.String(), e.Name)
				assert.Equal(t, m.Line, e.Line)
				assert.Equal(t, floats(m.Metrics), e.Metrics)
				assert.Equal(t, Float(m.MBps), e.Metrics["MB/s"])
			}
			require.NotNil(t, jr.Beff)
			require.Len(t, jr.Beff.Patterns, len(p.Patterns))
			assert.Equal(t, p.TotalTime.Seconds(), float64(jr.Beff.TotalTimeS))
			for j, pt := range p.Patterns {
				jp := jr.Beff.Patterns[j]
				assert.Equal(t, pt.Name, jp.Name)
				assert.Equal(t, pt.Kind.String(), jp.Kind)
				assert.Equal(t, pt.Avg, float64(jp.AvgMBps))
				require.Len(t, jp.Rows, len(pt.Rows))
				for r, row := range pt.Rows {
					assert.Equal(t, row.L, jp.Rows[r].SizeBytes)
					assert.Equal(t, row.Best.Method.String(), jp.Rows[r].BestMethod)
					assert.Equal(t, row.Best.MBps, float64(jp.Rows[r].BestMBps))
					assert.Len(t, jp.Rows[r].MBps, len(row.Measured))
				}
			}
		}
		for k, p := range ios {
			jr := jf.Runs[len(ps)+k]
			assert.Equal(t, "b_eff_io", jr.Benchmark)
			assert.Equal(t, p.Run.Index, jr.Index)
			assert.Equal(t, p.Run.Line, jr.Line)
			assert.Nil(t, jr.Beff)
			checkCommon(t, jr, p.Figures(), p.Valid(), p.Reasons, p.Notes, p.Run.FileConfig)
			require.Len(t, jr.Experiments, len(p.Run.Measurements))
			for j, m := range p.Run.Measurements {
				assert.Equal(t, m.IOKey.String(), jr.Experiments[j].Name)
				assert.Equal(t, floats(m.Metrics), jr.Experiments[j].Metrics)
			}
			jio := jr.BeffIO
			require.NotNil(t, jio)
			assert.Equal(t, p.BestN, jio.BestN)
			assert.Equal(t, p.Errors, jio.Errors)
			require.Len(t, jio.Access, 3)
			for _, a := range beffio.Accesses {
				assert.Equal(t, a.String(), jio.Access[a].Access)
				assert.Equal(t, p.Access[a], float64(jio.Access[a].ValueMBps))
				assert.Equal(t, p.Data[a], float64(jio.Access[a].DataMB))
				assert.Equal(t, p.CacheRatio[a], float64(jio.Access[a].CacheRatio))
			}
			require.Len(t, jio.Partitions, len(p.Partitions))
			for j, part := range p.Partitions {
				jp := jio.Partitions[j]
				assert.Equal(t, part.N, jp.N)
				assert.Equal(t, part.Value, float64(jp.ValueMBps))
				assert.Equal(t, part.Release2, float64(jp.Release2MBps))
				for _, a := range beffio.Accesses {
					assert.Equal(t, part.Access[a], float64(jp.Access[a].ValueMBps))
					require.Len(t, jp.Access[a].Types, 5)
					for _, ty := range beffio.Types {
						assert.Equal(t, part.Totals[a][ty].MBps, float64(jp.Access[a].Types[ty].MBps))
					}
				}
			}
		}
	}
	// The file with both benchmarks: b_eff first.
	assert.Equal(t, []string{"b_eff", "b_eff_io"}, []string{doc.Files[2].Runs[0].Benchmark, doc.Files[2].Runs[1].Benchmark})
	assert.Equal(t, "20", doc.Files[1].Runs[0].Config["beff-rmax-gflops"])
	assert.Equal(t, Float(20), doc.Files[1].Runs[0].Beff.RmaxGflops)

	var again bytes.Buffer
	require.NoError(t, WriteJSON(&again, doc.Files))
	assert.Equal(t, b.String(), again.String(), "encoding the decoded document again")
}

// checkCommon checks the fields every run has.
func checkCommon(t *testing.T, jr JSONRun, figs []Figure, valid bool, reasons, notes []string, cfg map[string]string) {
	t.Helper()
	require.Len(t, jr.Figures, len(figs))
	for i, f := range figs {
		assert.Equal(t, f, Figure{jr.Figures[i].Name, jr.Figures[i].Label, float64(jr.Figures[i].Value), jr.Figures[i].Unit})
	}
	assert.Equal(t, valid, jr.Valid)
	assert.Equal(t, strings0(reasons), jr.Reasons)
	assert.Equal(t, strings0(notes), jr.Notes)
	assert.Equal(t, cfg, jr.Config)
	assert.NotEmpty(t, jr.Config["mpi-procs"])
}

func floats(m map[string]float64) map[string]Float {
	out := map[string]Float{}
	for k, v := range m {
		out[k] = Float(v)
	}
	return out
}

func TestFloatJSON(t *testing.T) {
	for _, tt := range []struct {
		v    float64
		want string
	}{
		{0, "0"},
		{1.5, "1.5"},
		{9954.048712636575, "9954.048712636575"},
		{1e21, "1e+21"},
		{1e-7, "1e-7"},
		{math.NaN(), "null"},
		{math.Inf(1), "null"},
		{math.Inf(-1), "null"},
	} {
		b, err := json.Marshal(Float(tt.v))
		require.NoError(t, err)
		assert.Equal(t, tt.want, string(b), "%v", tt.v)
	}
	var v struct {
		A Float
		B []Float
		M map[string]Float
	}
	require.NoError(t, json.Unmarshal([]byte(`{"A":null,"B":[null,2],"M":{"x":null,"y":3}}`), &v))
	assert.True(t, math.IsNaN(float64(v.A)))
	assert.True(t, math.IsNaN(float64(v.B[0])))
	assert.Equal(t, Float(2), v.B[1])
	assert.True(t, math.IsNaN(float64(v.M["x"])))
	assert.Equal(t, Float(3), v.M["y"])
	assert.Error(t, json.Unmarshal([]byte(`{"A":"1"}`), &v))
}

// TestJSONFloatFields checks that every floating-point field of the JSON
// types is a Float, so that NaN and Inf cannot make the output invalid.
func TestJSONFloatFields(t *testing.T) {
	floatT := reflect.TypeFor[Float]()
	seen := map[reflect.Type]bool{}
	var walk func(path string, ty reflect.Type)
	walk = func(path string, ty reflect.Type) {
		if ty == floatT || seen[ty] {
			return
		}
		seen[ty] = true
		switch ty.Kind() {
		case reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128, reflect.Interface:
			t.Errorf("%s is a %s, not a Float", path, ty)
		case reflect.Pointer, reflect.Slice, reflect.Array:
			walk(path+"[]", ty.Elem())
		case reflect.Map:
			walk(path+"[key]", ty.Key())
			walk(path+"[]", ty.Elem())
		case reflect.Struct:
			for i := range ty.NumField() {
				f := ty.Field(i)
				assert.NotEmpty(t, f.Tag.Get("json"), "%s.%s has no json tag", path, f.Name)
				walk(path+"."+f.Name, f.Type)
			}
		}
	}
	walk("JSONDoc", reflect.TypeFor[JSONDoc]())
}

// TestJSONNonFinite folds input whose values JSON cannot carry: a cache of
// 0 MiB (an infinite data-to-cache ratio) and metrics NaN, +Inf and -Inf
// that the fold does not check. The document stays valid JSON, with null.
func TestJSONNonFinite(t *testing.T) {
	io := ioHand()
	io.cacheMiB = "0"
	ioText := edit(io.text(), func(l string) []string {
		if strings.HasPrefix(l, "BenchmarkBeffIO/n=1/acc=write/type=scatter/pat=0/") {
			l += "\tNaN x-nan\t+Inf x-inf\t-Inf x-neginf"
		}
		if strings.HasPrefix(l, "BenchmarkBeffIO/n=1/acc=write/type=all/pat=phase") {
			l = strings.Replace(l, " ns/op", " ns/op\t+Inf ns-extra", 1)
		}
		return []string{l}
	})
	beffText := edit(handRun().text(), func(l string) []string {
		if strings.HasPrefix(l, "BenchmarkBeff/") {
			l += "\tNaN x-nan"
		}
		return []string{l}
	})
	f, ps, ios := foldFile(t, beffText+ioText, "nonfinite.txt")
	require.Len(t, ps, 1)
	require.Len(t, ios, 1)
	assert.True(t, math.IsInf(ios[0].CacheRatio[beffio.Write], 1))

	var b bytes.Buffer
	require.NoError(t, WriteJSON(&b, []JSONFile{NewJSONFile(f.Name, ps, ios)}))
	out := b.String()
	require.True(t, json.Valid(b.Bytes()), "invalid JSON")
	for _, bad := range []string{"NaN", "Inf"} {
		assert.NotContains(t, out, bad)
	}
	assert.Contains(t, out, `"cache_ratio": null`)
	assert.Contains(t, out, `"x-nan": null`)
	assert.Contains(t, out, `"x-inf": null`)
	assert.Contains(t, out, `"x-neginf": null`)

	doc := decodeStrict(t, b.Bytes())
	jio := doc.Files[0].Runs[1].BeffIO
	assert.True(t, math.IsNaN(float64(jio.Access[0].CacheRatio)))
	e := doc.Files[0].Runs[1].Experiments[0]
	assert.True(t, math.IsNaN(float64(e.Metrics["x-inf"])))
	assert.Equal(t, Float(40), e.Metrics["MB/s"])

	// Without beffio-cache-mib and beffio-totalmem-mib the ratio and the
	// percentage are null too; without Rmax and 1-byte sizes rmax_gflops
	// and the latencies.
	io.cacheMiB, io.totalMiB = "", ""
	s := synth{n: 2, sizes: []int64{64, 65536}, random: 1, patterns: ringsAndRandom01,
		meas: func(pat string, l int64, m beff.Method) (meas, bool) {
			return meas{mbps: float64(l), msLoop: 1, looplen: 1}, true
		}}
	f, ps, ios = foldFile(t, s.text()+io.text(), "unknown.txt")
	b.Reset()
	require.NoError(t, WriteJSON(&b, []JSONFile{NewJSONFile(f.Name, ps, ios)}))
	doc = decodeStrict(t, b.Bytes())
	for _, a := range doc.Files[0].Runs[1].BeffIO.Access {
		assert.True(t, math.IsNaN(float64(a.CacheRatio)))
		assert.True(t, math.IsNaN(float64(a.DataPct)))
	}
	jb := doc.Files[0].Runs[0].Beff
	assert.True(t, math.IsNaN(float64(jb.RmaxGflops)))
	assert.True(t, math.IsNaN(float64(jb.Patterns[0].LatencyUs)), "1 byte not measured")
	assert.Contains(t, b.String(), `"latency_us": null`)
}

func TestWriteJSONEmpty(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, WriteJSON(&b, nil))
	assert.Equal(t, "{\n  \"schema\": \"beff-fold/1\",\n  \"files\": []\n}\n", b.String())
}
