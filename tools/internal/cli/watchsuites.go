package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gatedcrd/gatedcrd/internal/childproc"
	"github.com/gatedcrd/gatedcrd/internal/suitefile"
	"github.com/gatedcrd/gatedcrd/internal/suiteserve"
	"github.com/gatedcrd/gatedcrd/tools/pkg/watch"
)

// suiteRunner is the apitest --serve child of codegen watch --suites. It
// keeps an API server warm for the whole watch and, after every cycle,
// runs the suites of the CRD files the cycle wrote and of the suite
// files it saw edited. apitest runs in a process of its own because it
// links kube-apiserver and etcd, which codegen must not; the two speak
// JSON lines over the child's standard input and output (package suiteserve).
type suiteRunner struct {
	ctx     context.Context
	child   *childproc.Process
	answers *bufio.Reader
	out     io.Writer
	baseDir string
	// ready is closed once the server reported whether it started.
	ready   chan struct{}
	version string
	// off is set when the suites are off for the rest of the watch: the
	// server did not start, or the child ended. Before ready is closed
	// only awaitReady sets it, after that only afterCycle.
	off error
	// stopping is set once stop has begun: the child's end is expected.
	stopping atomic.Bool
}

// suitesArgs are the arguments of apitest --serve for the watch's flags.
func suitesArgs(opts *options, flags watchFlags) ([]string, error) {
	args := []string{"--serve", "--base-dir", opts.baseDir}
	if opts.kubeVersion != "" {
		args = append(args, "--kube-version", opts.kubeVersion)
	}
	if opts.payloadSet {
		p, err := opts.payloadPath()
		if err != nil {
			return nil, err
		}
		args = append(args, "--manifest-merge:payload-manifest-path", p)
	}
	if flags.skip != "" {
		args = append(args, "--"+skipFlag, flags.skip)
	}
	if flags.rerunAll {
		args = append(args, "--rerun-all")
	}
	return args, nil
}

// startSuites starts apitest --serve on the tree, with the skip list
// and --rerun-all the watch's flags give. It returns at once; the server starts while the
// first cycle runs. Ending ctx asks the child to stop (SIGTERM), which
// also cuts short a run of suites in progress.
func startSuites(ctx context.Context, opts *options, program string, flags watchFlags) (*suiteRunner, error) {
	args, err := suitesArgs(opts, flags)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(program, args...)
	cmd.Stderr = opts.stderr // the release chosen and why, the server's start
	child, err := childproc.Start(cmd)
	if err != nil {
		return nil, err
	}
	child.SignalOnDone(ctx, syscall.SIGTERM)
	s := &suiteRunner{ctx: ctx, child: child, answers: bufio.NewReader(child.Stdout),
		out: opts.stderr, baseDir: opts.baseDir, ready: make(chan struct{})}
	go s.awaitReady()
	return s, nil
}

// awaitReady reads the child's first line. A server that did not start
// turns the suites off, which it says at once: the watch goes on
// generating.
func (s *suiteRunner) awaitReady() {
	defer close(s.ready)
	var r suiteserve.Ready
	switch err := s.read(&r); {
	case err != nil:
		s.turnOff(s.endedBeforeReady(err))
	case !r.Ready:
		s.turnOff(fmt.Errorf("the API server did not start: %s", r.Error))
	default:
		s.version = r.KubeVersion
	}
}

// exitWait bounds how long awaitReady waits, after the child closed its
// output, for it to exit and give its exit status.
const exitWait = 10 * time.Second

// endedBeforeReady says how the child ended when it closed its output
// before saying whether its server started (a bad command line or skip
// list, which it reported on its standard error).
func (s *suiteRunner) endedBeforeReady(readErr error) error {
	select {
	case <-s.child.Exited():
		return fmt.Errorf("apitest --serve ended before its API server was ready (%v)", s.child.State())
	case <-time.After(exitWait):
		return readErr
	}
}

// turnOff turns the suites off for the rest of the watch and says why,
// unless the watch is stopping anyway.
func (s *suiteRunner) turnOff(why error) {
	s.off = why
	if s.ctx.Err() == nil && !s.stopping.Load() {
		fmt.Fprintf(s.out, "error: --suites: the suites are off for the rest of this watch: %v\n", why)
	}
}

// read decodes the child's next line.
func (s *suiteRunner) read(v any) error {
	line, err := s.answers.ReadBytes('\n')
	if err != nil {
		return fmt.Errorf("apitest --serve ended (%v)", err)
	}
	if err := json.Unmarshal(line, v); err != nil {
		return fmt.Errorf("apitest --serve answered %q: %v", strings.TrimSpace(string(line)), err)
	}
	return nil
}

// afterCycle runs the suites a cycle concerns and prints one line, and
// the failures as apitest prints them.
func (s *suiteRunner) afterCycle(rep watch.Report) {
	if rep.Generators != nil {
		return // a run of the deepcopy and model name generators: no CRD file
	}
	if rep.Err != nil {
		fmt.Fprintf(s.out, "suites #%d: not run, the cycle failed\n", rep.Cycle)
		return
	}
	req := s.requestFor(rep)
	if len(req.CRDFiles) == 0 && len(req.SuiteFiles) == 0 {
		fmt.Fprintf(s.out, "suites #%d: no CRD file or suite changed\n", rep.Cycle)
		return
	}
	<-s.ready
	if s.off != nil {
		fmt.Fprintf(s.out, "suites #%d: not run: %v\n", rep.Cycle, s.off)
		return
	}
	res, err := s.run(req)
	switch {
	case err != nil:
		s.turnOff(err) // the child ended, or its answers are out of step
		fmt.Fprintf(s.out, "suites #%d: not run: %v\n", rep.Cycle, err)
	case res.Error != "":
		fmt.Fprintf(s.out, "suites #%d: not run: %s\n", rep.Cycle, res.Error)
	default:
		fmt.Fprintf(s.out, "suites #%d: %s\n", rep.Cycle, summary(res, s.version))
		io.WriteString(s.out, res.Output)
	}
}

// summary is the result line of a run of suites.
func summary(r suiteserve.Result, version string) string {
	counts := fmt.Sprintf("%d passed, %d failed", r.Passed, r.Failed)
	if r.Skipped > 0 {
		counts += fmt.Sprintf(", %d skipped", r.Skipped)
	}
	if r.Unchanged > 0 {
		counts += fmt.Sprintf(" (%d tests unchanged, not re-run)", r.Unchanged)
	}
	line := fmt.Sprintf("%s in %d (suite × CRD file) pair(s) on Kubernetes %s; %v", counts, r.Pairs, version, r.Duration.Round(time.Millisecond))
	if r.Where != "" {
		line += " (" + r.Where + ")"
	}
	return line
}

// requestFor names the generated CRD files a cycle wrote and the suite
// files it saw changed (and that still exist), as paths below the
// --base-dir given to the child.
func (s *suiteRunner) requestFor(rep watch.Report) suiteserve.Request {
	var req suiteserve.Request
	for _, f := range rep.Files {
		if isGeneratedCRD(f) {
			req.CRDFiles = append(req.CRDFiles, filepath.Join(s.baseDir, f))
		}
	}
	for _, f := range rep.Changed {
		p := filepath.Join(s.baseDir, f)
		if _, err := os.Stat(p); err == nil && suitefile.IsSuite(p) {
			req.SuiteFiles = append(req.SuiteFiles, p)
		}
	}
	return req
}

// run sends one request and reads its answer.
func (s *suiteRunner) run(req suiteserve.Request) (suiteserve.Result, error) {
	data, err := json.Marshal(req)
	if err != nil {
		return suiteserve.Result{}, err
	}
	if _, err := s.child.Stdin.Write(append(data, '\n')); err != nil {
		return suiteserve.Result{}, fmt.Errorf("apitest --serve ended (%v)", err)
	}
	var res suiteserve.Result
	err = s.read(&res)
	return res, err
}

// suiteStopGrace is how long the child may take to stop its server and
// remove its temporary directories before it is killed.
const suiteStopGrace = time.Minute

// stop ends the child: the end of its standard input stops its server.
// How a child ended that had turned the suites off was said then; one
// that served fails the watch only if it did not stop cleanly.
func (s *suiteRunner) stop() error {
	s.stopping.Store(true)
	err := s.child.Stop(suiteStopGrace)
	if errors.Is(err, childproc.ErrKilled) {
		return fmt.Errorf("apitest --serve did not stop within %v; killed", suiteStopGrace)
	}
	<-s.ready
	if st := s.child.State(); s.off == nil && !st.Success() && !signalled(st) {
		return fmt.Errorf("apitest --serve: %v", st)
	}
	return nil
}

// signalled says the child ended on our SIGTERM (or the terminal's
// SIGINT) without handling it, which is how a stop may end.
func signalled(st *os.ProcessState) bool {
	ws, ok := st.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled()
}

// isGeneratedCRD says whether p is a CRD file of a version's
// zz_generated.crd-manifests, which the suites run against.
func isGeneratedCRD(p string) bool {
	return filepath.Ext(p) == ".yaml" && filepath.Base(filepath.Dir(p)) == "zz_generated.crd-manifests"
}

// errNoAPITest is returned when no apitest program can be found or built.
var errNoAPITest = errors.New("no apitest program: give its path with --apitest, put it next to codegen or on $PATH")
