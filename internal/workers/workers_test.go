package workers

import (
	"sync"
	"sync/atomic"
	"testing"
)

func TestEachCallsEveryIndexOnce(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 100} {
		seen := make([]atomic.Int32, n)
		Each(n, func(i int) { seen[i].Add(1) })
		for i := range seen {
			if got := seen[i].Load(); got != 1 {
				t.Fatalf("n=%d: index %d called %d times", n, i, got)
			}
		}
	}
}

func TestEachLimitBoundsConcurrency(t *testing.T) {
	for _, limit := range []int{-1, 0, 1, 3} {
		var mu sync.Mutex
		running, most := 0, 0
		release := make(chan struct{})
		done := make(chan struct{})
		go func() {
			EachLimit(limit, 20, func(int) {
				mu.Lock()
				running++
				most = max(most, running)
				mu.Unlock()
				<-release
				mu.Lock()
				running--
				mu.Unlock()
			})
			close(done)
		}()
		for range 20 {
			release <- struct{}{}
		}
		<-done
		if want := max(limit, 1); most > want {
			t.Errorf("limit %d: %d calls ran at once", limit, most)
		}
	}
}
