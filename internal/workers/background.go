package workers

import (
	"runtime"
	"sync"
)

// Background runs functions on goroutines of their own, at most a limit of
// them at once, without making the caller wait to hand one over: for work
// produced one piece at a time by a caller that has more to do meanwhile
// (Each needs all of it up front and returns when it is done).
type Background struct {
	slots chan struct{}
	wg    sync.WaitGroup
}

// NewBackground returns a Background running up to GOMAXPROCS functions
// at once.
func NewBackground() *Background {
	return &Background{slots: make(chan struct{}, runtime.GOMAXPROCS(0))}
}

// Go runs fn in the background once fewer than the limit run, and returns
// at once.
func (b *Background) Go(fn func()) {
	b.wg.Go(func() {
		b.slots <- struct{}{}
		defer func() { <-b.slots }()
		fn()
	})
}

// Wait returns once every function handed to Go has returned.
func (b *Background) Wait() { b.wg.Wait() }

// Pending runs whole batches of Each in the background: for work a caller
// hands over in one piece and comes back for later (stage 1's read-ahead
// of the partial manifests, the manifest memo's prewarm between watch
// cycles), so that each of them need not pair a WaitGroup with Each by
// hand. Unlike Background, a batch runs on every core at once; batches
// started together share the cores. The zero value is ready to use.
type Pending struct{ wg sync.WaitGroup }

// Each starts Each(n, fn) and returns at once.
func (p *Pending) Each(n int, fn func(i int)) {
	p.wg.Go(func() { Each(n, fn) })
}

// Wait returns once every batch started so far has finished.
func (p *Pending) Wait() { p.wg.Wait() }
