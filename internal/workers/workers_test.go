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
		var g gauge
		release := make(chan struct{})
		done := make(chan struct{})
		go func() {
			EachLimit(limit, 20, func(int) { g.hold(release) })
			close(done)
		}()
		for range 20 {
			release <- struct{}{}
		}
		<-done
		if want := max(limit, 1); g.most > want {
			t.Errorf("limit %d: %d calls ran at once", limit, g.most)
		}
	}
}

// TestEachWithGivesEveryGoroutineItsOwnState: every index is called once,
// with the state of the goroutine that took it, made once per goroutine
// and never shared by two at a time.
func TestEachWithGivesEveryGoroutineItsOwnState(t *testing.T) {
	type state struct {
		busy atomic.Bool
		used int
	}
	for _, n := range []int{0, 1, 3, 100} {
		var made []*state
		var mu sync.Mutex
		seen := make([]atomic.Int32, n)
		EachWith(n, func() *state {
			s := &state{}
			mu.Lock()
			made = append(made, s)
			mu.Unlock()
			return s
		}, func(s *state, i int) {
			if !s.busy.CompareAndSwap(false, true) {
				t.Errorf("n=%d: a state was used by two goroutines at once", n)
			}
			s.used++
			seen[i].Add(1)
			s.busy.Store(false)
		})
		total := 0
		for _, s := range made {
			total += s.used
		}
		if total != n || len(made) > max(n, 0) || n > 0 && len(made) == 0 {
			t.Errorf("n=%d: %d states made, %d calls in all", n, len(made), total)
		}
		for i := range seen {
			if got := seen[i].Load(); got != 1 {
				t.Fatalf("n=%d: index %d called %d times", n, i, got)
			}
		}
	}
}

// TestBackgroundRunsEverythingWithinItsLimit: Go returns before its
// function runs when every slot is taken, no more than GOMAXPROCS
// functions run at once, and Wait returns once all are done.
func TestBackgroundRunsEverythingWithinItsLimit(t *testing.T) {
	b := NewBackground()
	limit := cap(b.slots)
	var g gauge
	release := make(chan struct{})
	var done atomic.Int32
	const n = 20
	for range n {
		b.Go(func() {
			g.hold(release)
			done.Add(1)
		})
	}
	// Every Go returned though none of the functions could finish.
	for range n {
		release <- struct{}{}
	}
	b.Wait()
	if done.Load() != n || g.most > limit {
		t.Errorf("%d of %d done, %d ran at once (limit %d)", done.Load(), n, g.most, limit)
	}
}

// gauge records the most calls of hold running at once.
type gauge struct {
	mu            sync.Mutex
	running, most int
}

// hold counts itself running until release gives it a value.
func (g *gauge) hold(release <-chan struct{}) {
	g.mu.Lock()
	g.running++
	g.most = max(g.most, g.running)
	g.mu.Unlock()
	<-release
	g.mu.Lock()
	g.running--
	g.mu.Unlock()
}

// TestPendingReturnsAtOnceAndWaitsForEveryBatch: Each returns while its
// batch cannot finish, and Wait returns only after every index of every
// batch was called.
func TestPendingReturnsAtOnceAndWaitsForEveryBatch(t *testing.T) {
	var p Pending
	release := make(chan struct{})
	var calls [2][]atomic.Int32
	for b := range calls {
		calls[b] = make([]atomic.Int32, 5)
		p.Each(len(calls[b]), func(i int) {
			<-release
			calls[b][i].Add(1)
		})
	}
	// Both Each calls returned though no index could run to its end.
	close(release)
	p.Wait()
	for b := range calls {
		for i := range calls[b] {
			if n := calls[b][i].Load(); n != 1 {
				t.Errorf("batch %d index %d called %d times, want 1", b, i, n)
			}
		}
	}
}

// TestFutureGivesEveryWaiterTheOneResult: fn runs once, Start does not
// wait for it, and every Wait returns its result.
func TestFutureGivesEveryWaiterTheOneResult(t *testing.T) {
	release := make(chan struct{})
	var calls atomic.Int32
	f := Start(func() int {
		<-release
		return int(calls.Add(1)) * 7
	})
	close(release) // Start returned though fn could not finish
	for range 3 {
		if got := f.Wait(); got != 7 {
			t.Errorf("Wait = %d, want 7", got)
		}
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("fn ran %d times, want 1", n)
	}
}
