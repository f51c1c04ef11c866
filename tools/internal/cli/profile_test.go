package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
)

// TestProfiles: --cpuprofile and --memprofile write profiles go tool pprof
// reads, the heap one with the run's allocations; an unwritable profile
// path is an I/O error.
func TestProfiles(t *testing.T) {
	dir := exampleTree(t, true)
	out := t.TempDir()
	cpu, mem := filepath.Join(out, "cpu.pprof"), filepath.Join(out, "mem.pprof")
	if code, stderr := codegen(t, "crd-manifests", "--verify", "-q", "--base-dir", dir, "--cpuprofile", cpu, "--memprofile", mem); code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	read := func(path string) *profile.Profile {
		t.Helper()
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		p, err := profile.Parse(f)
		if err != nil {
			t.Fatalf("%s: %v", filepath.Base(path), err)
		}
		return p
	}
	if p := read(cpu); len(p.SampleType) == 0 || p.SampleType[len(p.SampleType)-1].Type != "cpu" {
		t.Errorf("cpu.pprof is not a CPU profile: %v", p.SampleType)
	}
	p := read(mem)
	var types []string
	for _, st := range p.SampleType {
		types = append(types, st.Type)
	}
	if !strings.Contains(strings.Join(types, " "), "alloc_space") || len(p.Sample) == 0 {
		t.Errorf("mem.pprof holds no allocations: sample types %v, %d samples", types, len(p.Sample))
	}

	missing := filepath.Join(out, "no-such-dir", "cpu.pprof")
	code, stderr := codegen(t, "crd-manifests", "--verify", "-q", "--base-dir", dir, "--cpuprofile", missing)
	if code != ExitIO || !strings.Contains(stderr, "error: --cpuprofile: ") {
		t.Errorf("unwritable --cpuprofile: exit %d, stderr %q; want exit %d naming the flag", code, stderr, ExitIO)
	}
}
