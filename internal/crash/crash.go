// Package crash keeps the details of a bug of beff (a panic) in a file of
// their own, so that the user sees one line that says where they went
// instead of a stack trace, whatever the input was.
package crash

import (
	"fmt"
	"os"
	"runtime/debug"
	"strings"
)

// Save writes what was running (args), the panic's value v and the stack
// to a fresh file in the temporary directory and returns "details in
// <file>; please report it", or why nothing could be saved.
func Save(args []string, v any) string {
	f, err := os.CreateTemp("", "beff-crash-*.txt")
	if err != nil {
		return "no details saved: " + err.Error()
	}
	defer f.Close()
	fmt.Fprintf(f, "%s\npanic: %v\n\n%s", strings.Join(args, " "), v, debug.Stack())
	return "details in " + f.Name() + "; please report it"
}
