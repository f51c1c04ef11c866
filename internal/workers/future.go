package workers

// Future is the result of one function run on a goroutine of its own,
// started early so that its cost hides behind other work (opening git for
// the validation, the external OpenAPI program) and taken when needed.
type Future[T any] struct {
	done  chan struct{}
	value T
}

// Start runs fn on a goroutine of its own and returns at once.
func Start[T any](fn func() T) *Future[T] {
	f := &Future[T]{done: make(chan struct{})}
	go func() {
		defer close(f.done)
		f.value = fn()
	}()
	return f
}

// Wait returns fn's result once fn has returned; any number of callers
// may wait, each getting the same value.
func (f *Future[T]) Wait() T {
	<-f.done
	return f.value
}
