// Package workers runs independent pieces of work on a bounded number of
// goroutines: the one worker pool every stage uses, instead of one
// hand-written pool per package. Each (EachLimit, EachWith) waits for its
// work; the background forms return at once and are waited for later:
// Pending for whole batches of Each, Background for work handed over one
// piece at a time, Future for one result started early.
package workers

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Each calls fn(0), ..., fn(n-1) on up to GOMAXPROCS goroutines and
// returns when every call has returned. Calls run in no particular order;
// fn must be safe for concurrent use, typically writing only to slot i of
// a result slice.
func Each(n int, fn func(i int)) {
	EachLimit(runtime.GOMAXPROCS(0), n, fn)
}

// EachLimit is Each on up to limit goroutines (at least one).
func EachLimit(limit, n int, fn func(i int)) {
	eachOn(limit, n, func() func(int) { return fn })
}

// EachWith is Each for work that needs state of its own per goroutine (a
// client that is not safe for concurrent use, a cache): every goroutine
// makes its state once with newState, before its first call, then calls
// fn with it for each index it takes.
func EachWith[S any](n int, newState func() S, fn func(state S, i int)) {
	eachOn(runtime.GOMAXPROCS(0), n, func() func(int) {
		state := newState()
		return func(i int) { fn(state, i) }
	})
}

// eachOn calls the function worker returns for each index, on up to limit
// goroutines that take the indexes in order; worker runs once on each.
func eachOn(limit, n int, worker func() func(i int)) {
	workers := min(max(limit, 1), n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			fn := worker()
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				fn(i)
			}
		})
	}
	wg.Wait()
}
