package childproc

import (
	"bufio"
	"context"
	"errors"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// start starts sh -c script as a child.
func start(t *testing.T, script string) *Process {
	t.Helper()
	p, err := Start(exec.Command("sh", "-c", script))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Stop(0) })
	return p
}

// TestTalksAndStopsOnEndOfInput: the parent writes to the child's
// standard input and reads its answers; closing the input ends a child
// that reads to its end, and Stop reports that it exited cleanly.
func TestTalksAndStopsOnEndOfInput(t *testing.T) {
	p := start(t, `while read -r line; do echo "got $line"; done`)
	if _, err := p.Stdin.Write([]byte("ping\n")); err != nil {
		t.Fatal(err)
	}
	answer, err := bufio.NewReader(p.Stdout).ReadString('\n')
	if err != nil || answer != "got ping\n" {
		t.Fatalf("answer %q, %v; want %q", answer, err, "got ping\n")
	}
	if err := p.Stop(time.Minute); err != nil {
		t.Errorf("Stop: %v, want a clean exit", err)
	}
	if !p.State().Success() {
		t.Errorf("state %v, want success", p.State())
	}
}

// TestStopReportsExitStatus: a child that fails on its way out is
// reported with its exit status.
func TestStopReportsExitStatus(t *testing.T) {
	p := start(t, `cat >/dev/null; exit 3`)
	var exit *exec.ExitError
	if err := p.Stop(time.Minute); !errors.As(err, &exit) || exit.ExitCode() != 3 {
		t.Errorf("Stop: %v, want exit status 3", err)
	}
}

// TestStopKillsAfterGrace: a child that ignores the end of its input is
// killed once the grace period is over.
func TestStopKillsAfterGrace(t *testing.T) {
	p := start(t, `exec sleep 600`)
	if err := p.Stop(10 * time.Millisecond); !errors.Is(err, ErrKilled) {
		t.Errorf("Stop: %v, want ErrKilled", err)
	}
	if ws := p.State().Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Errorf("state %v, want killed", p.State())
	}
}

// TestSignalOnDone: the end of the parent's context signals the child,
// which ends a child that ignores its input.
func TestSignalOnDone(t *testing.T) {
	p := start(t, `exec sleep 600`)
	ctx, cancel := context.WithCancel(t.Context())
	p.SignalOnDone(ctx, syscall.SIGTERM)
	cancel()
	<-p.Exited()
	if ws := p.State().Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
		t.Errorf("state %v, want ended by SIGTERM", p.State())
	}
}

// TestStartFailure names the program that could not start.
func TestStartFailure(t *testing.T) {
	_, err := Start(exec.Command("/nonexistent/program"))
	if err == nil || !strings.Contains(err.Error(), "starting /nonexistent/program") {
		t.Errorf("Start: %v, want an error naming the program", err)
	}
}

// TestLastLineOutlivesTheChild: a child that writes a line and exits at
// once still has its line read, however late the parent reads it.
func TestLastLineOutlivesTheChild(t *testing.T) {
	p := start(t, `echo '{"ready":false}'; exit 1`)
	<-p.Exited()
	time.Sleep(10 * time.Millisecond) // past the Wait that used to close the reader
	line, err := bufio.NewReader(p.Stdout).ReadString('\n')
	if err != nil || line != "{\"ready\":false}\n" {
		t.Fatalf("read %q, %v; want the child's line", line, err)
	}
}
