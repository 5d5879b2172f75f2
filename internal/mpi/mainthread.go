package mpi

import "sync"

// Every MPI call of the package runs on one OS thread: the thread that
// called Init, while Serve runs on it. Benchmarks run on goroutines that
// the Go scheduler moves between threads; funnelling their calls to the
// thread that initialised MPI is what lets a Go program ask for the thread
// level a C benchmark gets (MPI_THREAD_SINGLE) and keep its promise.

// mainCalls carries calls to the serving thread while Serve runs.
var (
	mainCalls chan func()
	mainDone  chan struct{}
	callMu    sync.Mutex // one call in flight
)

// Serve runs, on the calling goroutine (locked to the thread that called
// Init), every MPI call the package makes from other goroutines while
// work runs on a goroutine of its own; it returns what work returns. Calls
// made before and after Serve run where they are made.
func Serve(work func() int) int {
	mainCalls, mainDone = make(chan func()), make(chan struct{})
	result := make(chan int)
	go func() { result <- work() }()
	for {
		select {
		case f := <-mainCalls:
			f()
			mainDone <- struct{}{}
		case code := <-result:
			mainCalls, mainDone = nil, nil
			return code
		}
	}
}

// OnMain returns f() computed on the serving thread, or here when no
// thread serves. f must not itself call OnMain. Every cgo call into MPI
// goes through it, the suites' timed loops included.
func OnMain[T any](f func() T) T {
	if mainCalls == nil {
		return f()
	}
	callMu.Lock()
	defer callMu.Unlock()
	var v T
	mainCalls <- func() { v = f() }
	<-mainDone
	return v
}
