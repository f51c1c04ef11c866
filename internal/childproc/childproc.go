// Package childproc runs a child program that its parent drives over the
// child's standard input and output and asks to stop by closing its
// standard input: apitest's server programs (apitest/kubeversion) and
// codegen watch --suites' apitest --serve child. The two parents live in
// Go modules that must not link each other, so the plumbing they share
// lives here, in the root module both import.
package childproc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"
)

// Process is a started child program.
type Process struct {
	cmd *exec.Cmd
	// Stdin is the child's standard input; closing it asks the child to
	// stop (Stop does).
	Stdin io.WriteCloser
	// Stdout is the child's standard output. What the child wrote before
	// it exited stays readable after it exited; the reader then ends, and
	// closes itself, at the end of that output.
	Stdout io.Reader
	exited chan struct{}
	// waitErr is cmd.Wait's result, read after exited is closed.
	waitErr error
}

// Start starts cmd with pipes to its standard input and output. cmd's
// other settings (environment, standard error, process attributes) are
// the caller's.
func Start(cmd *exec.Cmd) (*Process, error) {
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	// Our own pipe, not cmd.StdoutPipe: Wait closes the reader of that one
	// as soon as the child exits, so a child that writes one line and
	// exits at once (a server that did not start) could lose the line to
	// a parent that had not read it yet.
	stdout, childEnd, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.Stdout = childEnd
	err = cmd.Start()
	childEnd.Close() // the child holds its own copy
	if err != nil {
		stdout.Close()
		return nil, fmt.Errorf("starting %s: %w", cmd.Path, err)
	}
	p := &Process{cmd: cmd, Stdin: stdin, Stdout: &selfClosingReader{stdout}, exited: make(chan struct{})}
	go func() {
		p.waitErr = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// selfClosingReader closes its file once a read fails, at the end of the
// child's output, so that no caller has to.
type selfClosingReader struct{ f *os.File }

func (r *selfClosingReader) Read(b []byte) (int, error) {
	n, err := r.f.Read(b)
	if err != nil {
		r.f.Close()
	}
	return n, err
}

// Exited is closed once the child has exited.
func (p *Process) Exited() <-chan struct{} { return p.exited }

// State is how the child ended; call it only after Exited is closed.
func (p *Process) State() *os.ProcessState { return p.cmd.ProcessState }

// SignalOnDone sends sig to the child when ctx ends before the child
// exits, so that an interrupted parent also interrupts the child's work
// in progress instead of waiting for it to read the end of its input.
func (p *Process) SignalOnDone(ctx context.Context, sig os.Signal) {
	go func() {
		select {
		case <-ctx.Done():
			_ = p.cmd.Process.Signal(sig)
		case <-p.exited:
		}
	}()
}

// ErrKilled is what Stop returns when the child did not stop in time.
var ErrKilled = errors.New("did not stop in time and was killed")

// Stop closes the child's standard input, which asks it to stop, and
// waits for it to exit. A child still running after grace is killed, and
// Stop returns ErrKilled; otherwise it returns how the child exited
// (nil, or an *exec.ExitError).
func (p *Process) Stop(grace time.Duration) error {
	_ = p.Stdin.Close()
	timer := time.NewTimer(grace)
	defer timer.Stop()
	select {
	case <-p.exited:
		return p.waitErr
	case <-timer.C:
		select {
		case <-p.exited: // it exited as the time ran out
			return p.waitErr
		default:
		}
		_ = p.cmd.Process.Kill()
		<-p.exited
		return ErrKilled
	}
}
