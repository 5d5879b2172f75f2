package resultstest

import (
	"reflect"
	"testing"

	"github.com/beff-suite/beff/internal/results"
)

// CheckFloats checks that every floating-point field of the JSON type of
// v is a results.Float (which writes NaN and Inf as null, so that they
// cannot make the output invalid) and that every field has a json tag.
// Fields tagged "-" are passed over (a suite's details are checked with
// its own type).
func CheckFloats(t *testing.T, v any) {
	t.Helper()
	floatT := reflect.TypeFor[results.Float]()
	seen := map[reflect.Type]bool{}
	var walk func(path string, ty reflect.Type)
	walk = func(path string, ty reflect.Type) {
		if ty == floatT || seen[ty] {
			return
		}
		seen[ty] = true
		switch ty.Kind() {
		case reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128, reflect.Interface:
			t.Errorf("%s is a %s, not a results.Float", path, ty)
		case reflect.Pointer, reflect.Slice, reflect.Array:
			walk(path+"[]", ty.Elem())
		case reflect.Map:
			walk(path+"[key]", ty.Key())
			walk(path+"[]", ty.Elem())
		case reflect.Struct:
			for i := range ty.NumField() {
				f := ty.Field(i)
				tag := f.Tag.Get("json")
				if tag == "-" {
					continue
				}
				if tag == "" {
					t.Errorf("%s.%s has no json tag", path, f.Name)
				}
				walk(path+"."+f.Name, f.Type)
			}
		}
	}
	ty := reflect.TypeOf(v)
	walk(ty.String(), ty)
}

// FigureMap indexes figures by name.
func FigureMap(figs []results.Figure) map[string]float64 {
	m := map[string]float64{}
	for _, f := range figs {
		m[f.Name] = f.Value
	}
	return m
}
