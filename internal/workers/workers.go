// Package workers runs independent pieces of work on a bounded number of
// goroutines: the one worker pool every stage uses, instead of one
// hand-written pool per package.
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
	workers := min(max(limit, 1), n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				fn(i)
			}
		})
	}
	wg.Wait()
}
