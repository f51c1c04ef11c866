package kubeversion

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gatedcrd/gatedcrd/apitest/server"
	"github.com/gatedcrd/gatedcrd/internal/childproc"
	"k8s.io/client-go/rest"
)

// Options configure Start.
type Options struct {
	BuildOptions
	// Verbosity is passed to the server (see server.Options.Verbosity);
	// 0 consults server.VerboseEnv.
	Verbosity int
	// LogOutput receives the server's logs when Verbosity > 0 (default
	// os.Stderr).
	LogOutput io.Writer
	// StartTimeout bounds the start of the server, the build excluded
	// (default 2 minutes).
	StartTimeout time.Duration
}

// Start starts an API server of Kubernetes version v and returns it once
// it is ready; Stop stops it. The linked version runs inside this process
// (server.Start); every other version runs as its program (see Build),
// started with mode serve and reached over loopback.
func Start(ctx context.Context, v Version, opts Options) (*server.Server, error) {
	if opts.StartTimeout == 0 {
		opts.StartTimeout = 2 * time.Minute
	}
	if v.Minor == Linked {
		tuneGC()
		return server.Start(ctx, server.Options{Verbosity: opts.Verbosity, LogOutput: opts.LogOutput, StartTimeout: opts.StartTimeout})
	}
	program, err := Build(ctx, v, opts.BuildOptions)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, opts.StartTimeout)
	defer cancel()
	return startProgram(ctx, program, opts)
}

// programGC is the garbage collector setting of a server program when
// the environment sets none. The server allocates heavily (decoding,
// validating and encoding large objects and CRDs) while its live heap
// stays a few hundred MiB, so with Go's default GOGC of 100 the collector
// took about a quarter of its CPU time; collecting at 4 times the live
// heap rather than twice costs a few hundred MiB more and saves most of
// that. The memory limit makes the collector work harder before the
// server would exceed it (see serverMemory in cmd/apitest).
var programGC = []string{"GOGC=" + strconv.Itoa(programGCPercent), "GOMEMLIMIT=" + strconv.Itoa(programMemoryLimit>>20) + "MiB"}

const (
	programGCPercent   = 400
	programMemoryLimit = 1536 << 20
)

// tuneGC gives this process, when it runs the server of the linked
// version, the garbage collector setting of the programs (programGC) for
// what the environment does not set.
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(programGCPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(programMemoryLimit)
	}
}

// programEnv returns the environment of a server program: env, with
// programGC's settings for the variables env does not set.
func programEnv(env []string) []string {
	out := slices.Clone(env)
	for _, setting := range programGC {
		name, _, _ := strings.Cut(setting, "=")
		if !slices.ContainsFunc(env, func(kv string) bool { return strings.HasPrefix(kv, name+"=") }) {
			out = append(out, setting)
		}
	}
	return out
}

// handshake is what serve writes on its first line of standard output.
type handshake struct {
	Host        string `json:"host"`
	BearerToken string `json:"bearerToken"`
	CAData      []byte `json:"caData"`
	ServerName  string `json:"serverName"`
}

// startProgram runs a program in mode serve and connects to it.
func startProgram(ctx context.Context, program string, opts Options) (_ *server.Server, err error) {
	verbosity := opts.Verbosity
	if verbosity == 0 {
		verbosity, _ = strconv.Atoi(os.Getenv(server.VerboseEnv))
	}
	cmd := exec.Command(program, "serve", "-v", strconv.Itoa(verbosity))
	cmd.Env = programEnv(os.Environ())
	setParentDeathSignal(cmd)
	logs := &server.LogTail{}
	cmd.Stderr = logs
	if verbosity > 0 {
		out := opts.LogOutput
		if out == nil {
			out = os.Stderr
		}
		cmd.Stderr = io.MultiWriter(logs, out)
	}
	child, err := childproc.Start(cmd)
	if err != nil {
		return nil, err
	}
	p := &process{child: child, logs: logs}
	defer func() {
		if err != nil {
			err = errors.Join(err, p.stop())
			err = fmt.Errorf("%w\n--- end of the server's output ---\n%s", err, logs.String())
		}
	}()

	lines := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(child.Stdout).ReadString('\n')
		lines <- line
		_, _ = io.Copy(io.Discard, child.Stdout) // the program writes nothing else; never block it
	}()
	var line string
	select {
	case line = <-lines:
	case <-ctx.Done():
		return nil, fmt.Errorf("waiting for %s to be ready: %w", program, context.Cause(ctx))
	}
	var hs handshake
	if err := json.Unmarshal([]byte(line), &hs); err != nil || hs.Host == "" {
		return nil, fmt.Errorf("%s did not report its address (it wrote %q)", program, strings.TrimSpace(line))
	}
	config := &rest.Config{
		Host:            hs.Host,
		BearerToken:     hs.BearerToken,
		TLSClientConfig: rest.TLSClientConfig{CAData: hs.CAData, ServerName: hs.ServerName},
	}
	return server.Connect(config, p.stop)
}

// process is a running server program.
type process struct {
	child *childproc.Process
	logs  *server.LogTail
}

// stopGrace is how long a program may take to stop after its standard
// input closed before it is killed.
const stopGrace = time.Minute

// stop closes the program's standard input, which asks it to stop, and
// waits for it to exit, killing it after stopGrace.
func (p *process) stop() error {
	err := p.child.Stop(stopGrace)
	switch {
	case errors.Is(err, childproc.ErrKilled):
		return fmt.Errorf("the API server program did not stop within %v and was killed", stopGrace)
	case err != nil:
		return fmt.Errorf("the API server program: %w\n%s", err, p.logs.String())
	}
	return nil
}
