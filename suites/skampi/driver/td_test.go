package driver

import "flag"

// td is the driver the tests use, its flags on a flag set of their own.
var td = New(flag.NewFlagSet("skampi", flag.ContinueOnError))
