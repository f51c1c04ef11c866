package crdvalidate

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
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
// running in mode validate. It is a Server; Close ends it.
type Program struct {
	mu     sync.Mutex
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	enc    *json.Encoder
	dec    *json.Decoder
	stderr *bytes.Buffer
	minor  string
}

// StartProgram builds (once; the first build of a release takes minutes,
// reported to opts.Progress) and starts the validation program of v.
func StartProgram(ctx context.Context, v kubeprogram.Version, opts kubeprogram.BuildOptions) (*Program, error) {
	files, err := programFiles(v)
	if err != nil {
		return nil, err
	}
	path, err := kubeprogram.Build(ctx, kubeprogram.Program{Name: programName, Description: "the CRD validation", Version: v, Files: files}, opts)
	if err != nil {
		return nil, err
	}
	p := &Program{cmd: exec.Command(path, "validate"), stderr: &bytes.Buffer{}, minor: v.Minor}
	p.cmd.Stderr = p.stderr
	if p.stdin, err = p.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := p.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", path, err)
	}
	p.enc = json.NewEncoder(p.stdin)
	p.dec = json.NewDecoder(bufio.NewReader(stdout))
	return p, nil
}

// Validate sends one request and waits for its outcome; requests of
// concurrent callers take turns.
func (p *Program) Validate(r admission.Request) (admission.Outcome, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out admission.Outcome
	if err := p.enc.Encode(r); err != nil {
		return out, p.failed(err)
	}
	if err := p.dec.Decode(&out); err != nil {
		return out, p.failed(err)
	}
	return out, nil
}

func (p *Program) failed(err error) error {
	return fmt.Errorf("the CRD validation program of Kubernetes %s failed: %w\n%s", p.minor, err, strings.TrimSpace(p.stderr.String()))
}

// Close ends the program.
func (p *Program) Close() error {
	p.stdin.Close()
	if err := p.cmd.Wait(); err != nil {
		return p.failed(err)
	}
	return nil
}
