package driver

import (
	"github.com/beff-suite/beff/suites/beff"
	"github.com/beff-suite/beff/suites/beff/loops"
)

// exchanges maps each method of b_eff to the binding's way of moving the
// messages of a step.
var exchanges = map[beff.Method]loops.Exchange{
	beff.Sendrecv:    loops.ExchangeSendrecv,
	beff.Alltoallv:   loops.ExchangeAlltoallv,
	beff.Nonblocking: loops.ExchangeNonblocking,
}
