// Package reporttest helps the tests of the site that beff report
// writes: reading back what a page holds.
package reporttest

import (
	"regexp"
	"testing"
)

// ScriptJSON returns the JSON of the <script type="application/json"
// id=ID> element of page; a page without it fails the test.
func ScriptJSON(t testing.TB, page, id string) []byte {
	t.Helper()
	re := regexp.MustCompile(`(?s)<script type="application/json" id="` + regexp.QuoteMeta(id) + `">(.*?)</script>`)
	m := re.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no JSON element #%s", id)
	}
	return []byte(m[1])
}
