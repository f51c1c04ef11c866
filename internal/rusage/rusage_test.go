//go:build unix

package rusage

import (
	"os/exec"
	"testing"
)

func TestUnit(t *testing.T) {
	for goos, want := range map[string]int64{"linux": 1024, "freebsd": 1024, "openbsd": 1024, "netbsd": 1024, "darwin": 1, "ios": 1} {
		if got := unit(goos); got != want {
			t.Errorf("unit(%s) = %d, want %d", goos, got, want)
		}
	}
}

// TestPeakIsPlausible: this test process and a child that ran are more
// than a megabyte and less than a terabyte, which a wrong unit breaks.
func TestPeakIsPlausible(t *testing.T) {
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("no true command:", err)
	}
	child, ok := Of(cmd.ProcessState)
	if !ok || child < 1<<19 || child > 1<<40 {
		t.Errorf("Of = %d, %v", child, ok)
	}
	self, children, ok := Peak()
	if !ok || self < 1<<20 || self > 1<<40 || children <= 0 {
		t.Errorf("Peak = %d, %d, %v", self, children, ok)
	}
}

// TestCPUCountsWaitedChildren: the CPU time of a child that spun counts
// towards CPU once it has been waited for, in the same unit, as the
// benchmarks that read CPU across apitest and its server programs need.
func TestCPUCountsWaitedChildren(t *testing.T) {
	before, ok := CPU()
	if !ok {
		t.Fatal("CPU reported nothing")
	}
	cmd := exec.Command("sh", "-c", "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done")
	if err := cmd.Run(); err != nil {
		t.Skip("no sh:", err)
	}
	child := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	after, _ := CPU()
	if child <= 0 || after-before < child {
		t.Errorf("CPU grew by %v across a child that used %v", after-before, child)
	}
}
