package crdvalidate

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/gatedcrd/gatedcrd/internal/kubeprogram"
	"github.com/gatedcrd/gatedcrd/tools/pkg/crdvalidate/admission"
)

// programMain is the validation program's main package. Its "go:build
// ignore" line keeps this module's builds and go mod tidy away from it;
// it is dropped when the file is written into a program module.
//
//go:embed program/main.go
var programMain []byte

const (
	programName       = "crdvalidate"
	programModulePath = "gatedcrd.invalid/" + programName
	ignoreLine        = "//go:build ignore\n\n"
)

// programFiles returns the module of the validation program of v: go.mod,
// main.go and a copy of package admission.
func programFiles(v kubeprogram.Version) (map[string][]byte, error) {
	if !bytes.HasPrefix(programMain, []byte(ignoreLine)) {
		return nil, fmt.Errorf("program/main.go does not start with %q", ignoreLine)
	}
	files := map[string][]byte{
		"go.mod":  kubeprogram.GoMod(programModulePath, v),
		"main.go": bytes.TrimPrefix(programMain, []byte(ignoreLine)),
	}
	source, err := admission.Source()
	if err != nil {
		return nil, err
	}
	for name, data := range source {
		files["admission/"+name] = data
	}
	return files, nil
}

// Program is the validation of another Kubernetes release: its program,
// running in mode validate. A program answers one request at a time, so
// Program starts up to one per CPU (GOMAXPROCS), each on the first request
// that finds the others busy: a run whose verdicts all come from the
// verdict cache starts none. It is a Server; Close ends them.
type Program struct {
	path, minor string
	max         int
	idle        chan *worker
	mu          sync.Mutex
	started     []*worker
}

// worker is one running validation program.
type worker struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	enc    *json.Encoder
	dec    *json.Decoder
	stderr *bytes.Buffer
}

// StartProgram builds (once; the first build of a release takes minutes,
// reported to opts.Progress) the validation program of v and returns it,
// ready to start on the first request.
func StartProgram(ctx context.Context, v kubeprogram.Version, opts kubeprogram.BuildOptions) (*Program, error) {
	files, err := programFiles(v)
	if err != nil {
		return nil, err
	}
	path, err := kubeprogram.Build(ctx, kubeprogram.Program{Name: programName, Description: "the CRD validation", Version: v, Files: files}, opts)
	if err != nil {
		return nil, err
	}
	n := max(1, runtime.GOMAXPROCS(0))
	return &Program{path: path, minor: v.Minor, max: n, idle: make(chan *worker, n)}, nil
}

// ID identifies the program's verdicts: its release and build (the cache
// entry kubeprogram built it in, named after the hash of its source and
// toolchain).
func (p *Program) ID() string {
	return programName + "-" + filepath.Base(filepath.Dir(p.path))
}

// Validate sends one request to an idle program, starting one when all
// are busy and fewer than the maximum run, and waits for its outcome.
func (p *Program) Validate(r admission.Request) (admission.Outcome, error) {
	w, err := p.acquire()
	if err != nil {
		return admission.Outcome{}, err
	}
	// A worker that failed goes back too: it fails the next request
	// at once, with the same account, instead of leaving it waiting.
	defer func() { p.idle <- w }()
	var out admission.Outcome
	if err := w.enc.Encode(r); err != nil {
		return out, p.failed(w, err)
	}
	if err := w.dec.Decode(&out); err != nil {
		return out, p.failed(w, err)
	}
	return out, nil
}

// acquire returns an idle worker, or starts one when there is room.
func (p *Program) acquire() (*worker, error) {
	select {
	case w := <-p.idle:
		return w, nil
	default:
	}
	p.mu.Lock()
	if len(p.started) < p.max {
		w, err := p.start()
		if err == nil {
			p.started = append(p.started, w)
		}
		p.mu.Unlock()
		return w, err
	}
	p.mu.Unlock()
	return <-p.idle, nil
}

// start starts one program in mode validate.
func (p *Program) start() (*worker, error) {
	w := &worker{cmd: exec.Command(p.path, "validate"), stderr: &bytes.Buffer{}}
	w.cmd.Stderr = w.stderr
	var err error
	if w.stdin, err = w.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := w.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := w.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", p.path, err)
	}
	w.enc = json.NewEncoder(w.stdin)
	w.dec = json.NewDecoder(bufio.NewReader(stdout))
	return w, nil
}

// failed describes a failure of worker w, with what it wrote to standard
// error.
func (p *Program) failed(w *worker, err error) error {
	return fmt.Errorf("the CRD validation program of Kubernetes %s failed: %w\n%s", p.minor, err, strings.TrimSpace(w.stderr.String()))
}

// Close ends every program started.
func (p *Program) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	var errs []error
	for _, w := range p.started {
		w.stdin.Close()
		if err := w.cmd.Wait(); err != nil {
			errs = append(errs, p.failed(w, err))
		}
	}
	p.started = nil
	return errors.Join(errs...)
}
