package driver

import (
	"github.com/beff-suite/beff/internal/mpi"
	"github.com/beff-suite/beff/suites/beff"
)

// exchanges maps each method of b_eff to the binding's way of moving the
// messages of a step.
var exchanges = map[beff.Method]mpi.Exchange{
	beff.Sendrecv:    mpi.ExchangeSendrecv,
	beff.Alltoallv:   mpi.ExchangeAlltoallv,
	beff.Nonblocking: mpi.ExchangeNonblocking,
}
