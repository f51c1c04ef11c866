package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
)

// Options configure Start. The zero value is a quiet server below
// os.TempDir().
type Options struct {
	// Verbosity selects the logs of etcd and the API server: 0 keeps them
	// in memory (their tail is quoted when Start fails), 1 writes warnings
	// and informational messages to LogOutput, and each step above adds a
	// klog debug level. When 0, the VerboseEnv environment variable is
	// consulted. klog is process-wide: the first server started in a
	// process decides for all later ones.
	Verbosity int

	// LogOutput receives the logs when Verbosity > 0 (default os.Stderr).
	LogOutput io.Writer

	// TempRoot is the directory in which the server's private directory
	// is created and stale ones are swept (default os.TempDir()).
	TempRoot string

	// StartTimeout bounds the whole start-up (default 2 minutes, which
	// leaves room for a loaded two-core CI machine).
	StartTimeout time.Duration
}

// Server is a running etcd and apiextensions-apiserver pair. Its methods
// are safe for concurrent use.
type Server struct {
	dir        string
	etcdPrefix string
	restConfig *rest.Config
	dynamic    dynamic.Interface
	crds       apiextensionsclient.Interface
	discovery  *discovery.DiscoveryClient
	barriers   barriers // the probe CRDs of syncHandler
	// skipOpenAPI turns the CRD helpers' OpenAPI waits off (see
	// SetOpenAPIWaits).
	skipOpenAPI atomic.Bool

	etcd      *embed.Etcd
	done      chan struct{}           // closed when the API server has returned
	runErr    error                   // what it returned; read after done is closed
	cancel    context.CancelCauseFunc // stops the API server; nil until it runs
	stopOnce  sync.Once
	stopError error

	// stopRemote stops a server that runs elsewhere (see Connect); nil for
	// a server in this process.
	stopRemote func() error
}

// clientQPS and clientBurst lift client-go's default rate limit (5 QPS),
// which would otherwise dominate the run time of a test suite.
const (
	clientQPS   = 1000
	clientBurst = 2000
)

// Start starts etcd and the API server and returns once /readyz reports
// ready. ctx bounds the start-up only; the server runs until Stop.
//
// Before it creates its own directory, Start removes the directories left
// by servers of processes that no longer exist (see sweepStaleTempDirs).
func Start(ctx context.Context, opts Options) (_ *Server, err error) {
	if opts.StartTimeout == 0 {
		opts.StartTimeout = 2 * time.Minute
	}
	if opts.Verbosity == 0 {
		opts.Verbosity = verbosityFromEnv()
	}
	logs, tail := setUpLogging(opts.Verbosity, opts.LogOutput)
	ctx, cancelStart := context.WithTimeout(ctx, opts.StartTimeout)
	defer cancelStart()

	// A failed sweep must not keep tests from running; the next start
	// tries again.
	if _, err := sweepStaleTempDirs(opts.TempRoot); err != nil {
		fmt.Fprintf(logs, "apitest: %v\n", err)
	}
	dir, err := makeTempDir(opts.TempRoot)
	if err != nil {
		return nil, err
	}
	s := &Server{dir: dir, done: make(chan struct{})}
	defer func() {
		if err != nil {
			err = errors.Join(err, s.Stop())
			if tail != nil {
				err = fmt.Errorf("%w\n--- end of the server log ---\n%s", err, tail.String())
			}
		}
	}()

	etcd, etcdURL, err := startEtcd(ctx, dir, logs, opts.Verbosity > 0)
	if err != nil {
		return nil, err
	}
	s.etcd = etcd

	s.etcdPrefix, err = randomPrefix()
	if err != nil {
		return nil, err
	}
	listener, err := net.Listen("tcp", loopbackAnyPort)
	if err != nil {
		return nil, fmt.Errorf("listening for the API server: %w", err)
	}
	server, err := newAPIExtensionsServer(apiserverConfig{
		listener:   listener,
		certDir:    certDirOf(dir),
		etcdURL:    etcdURL,
		etcdPrefix: s.etcdPrefix,
		logs:       logs,
	})
	if err != nil {
		listener.Close()
		return nil, err
	}

	runCtx, cancel := context.WithCancelCause(context.Background())
	s.cancel = cancel
	runPrepared := prepareRun(server.GenericAPIServer)
	go func() {
		defer close(s.done)
		s.runErr = runPrepared(runCtx)
	}()

	if err := s.connect(server.GenericAPIServer.LoopbackClientConfig); err != nil {
		return nil, err
	}
	if err := s.waitReady(ctx); err != nil {
		return nil, err
	}
	return s, nil
}

// Connect returns a Server for an API server that runs elsewhere and is
// reachable with config, typically the server program of another
// Kubernetes version (package kubeversion). Every helper works on it as on
// a server of this process; Stop calls stop once. Dir and EtcdPrefix are
// empty: they belong to the other process.
func Connect(config *rest.Config, stop func() error) (*Server, error) {
	s := &Server{stopRemote: stop}
	if err := s.connect(config); err != nil {
		return nil, err
	}
	return s, nil
}

// connect builds the clients of a server reachable with config.
func (s *Server) connect(config *rest.Config) error {
	s.restConfig = rest.CopyConfig(config)
	s.restConfig.QPS = clientQPS
	s.restConfig.Burst = clientBurst
	s.restConfig.UserAgent = "gatedcrd-apitest"
	var err error
	if s.dynamic, err = dynamic.NewForConfig(s.restConfig); err != nil {
		return err
	}
	if s.crds, err = apiextensionsclient.NewForConfig(s.restConfig); err != nil {
		return err
	}
	s.discovery, err = discovery.NewDiscoveryClientForConfig(s.restConfig)
	return err
}

// waitReady polls /readyz until it answers 200, the server exits or ctx
// ends. The server has no core-API informers (see newAPIExtensionsServer),
// so no check needs excluding.
func (s *Server) waitReady(ctx context.Context) error {
	var last string
	err := wait.PollUntilContextCancel(ctx, 50*time.Millisecond, true, func(ctx context.Context) (bool, error) {
		select {
		case <-s.done:
			return false, fmt.Errorf("the API server exited while starting: %v", s.runErr)
		default:
		}
		status := 0
		body, _ := s.discovery.RESTClient().Get().AbsPath("/readyz").Param("verbose", "true").Do(ctx).StatusCode(&status).Raw()
		if status == http.StatusOK {
			return true, nil
		}
		last = fmt.Sprintf("HTTP %d: %s", status, body)
		return false, nil
	})
	if err != nil {
		return fmt.Errorf("waiting for /readyz (last answer %s): %w", last, err)
	}
	return nil
}

// Stop shuts the API server and etcd down and removes the server's
// directory. It is idempotent; later calls return the first result.
func (s *Server) Stop() error {
	s.stopOnce.Do(func() {
		if s.stopRemote != nil {
			s.stopError = s.stopRemote()
			return
		}
		var errs []error
		if s.cancel != nil {
			s.cancel(errors.New("server stopped"))
			select {
			case <-s.done:
				if s.runErr != nil {
					errs = append(errs, fmt.Errorf("API server: %w", s.runErr))
				}
			case <-time.After(time.Minute):
				errs = append(errs, errors.New("the API server did not stop within a minute"))
			}
		}
		if s.etcd != nil {
			s.etcd.Close()
		}
		if err := os.RemoveAll(s.dir); err != nil {
			errs = append(errs, fmt.Errorf("removing the server directory: %w", err))
		}
		s.stopError = errors.Join(errs...)
	})
	return s.stopError
}

// RESTConfig returns a fresh copy of a client configuration that reaches
// the server as a privileged user, with client-side rate limiting lifted.
func (s *Server) RESTConfig() *rest.Config { return rest.CopyConfig(s.restConfig) }

// Dynamic returns a dynamic client for the server.
func (s *Server) Dynamic() dynamic.Interface { return s.dynamic }

// Dir returns the server's private directory (etcd data and certificates).
// It is removed by Stop. It is empty for a server of another process.
func (s *Server) Dir() string { return s.dir }

// EtcdPrefix returns the random etcd key prefix under which this server
// stores everything; empty for a server of another process.
func (s *Server) EtcdPrefix() string { return s.etcdPrefix }

func randomPrefix() (string, error) {
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return "/gatedcrd-apitest-" + hex.EncodeToString(b), nil
}

// The shared server: feature gates and the emulated version are
// process-wide in the apiserver libraries, so a test process runs one
// server and every test uses it.
var shared struct {
	mu      sync.Mutex
	started bool
	server  *Server
	err     error
}

// Shared returns the process's shared server, starting it (with the
// options from the environment, see VerboseEnv) on the first call. A
// failed start is remembered and returned to every later caller.
// TestMain should call StopShared after the tests have run; a process that
// is killed instead leaves its directory to the sweep of a later Start.
func Shared() (*Server, error) {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if !shared.started {
		shared.started = true
		shared.server, shared.err = Start(context.Background(), Options{})
	}
	return shared.server, shared.err
}

// StopShared stops the shared server if one was started. A later Shared
// call does not start a new one: it returns an error.
func StopShared() error {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.server == nil {
		return nil
	}
	err := shared.server.Stop()
	shared.server = nil
	if shared.err == nil {
		shared.err = errors.New("the shared API server has been stopped")
	}
	return err
}

// RunTests runs a test binary's tests, then stops the shared server, and
// returns the exit status: the tests' own, or 1 when they passed but the
// server did not stop cleanly. A package that uses Shared writes
//
//	func TestMain(m *testing.M) { os.Exit(server.RunTests(m)) }
func RunTests(m *testing.M) int {
	code := m.Run()
	if err := StopShared(); err != nil {
		fmt.Fprintf(os.Stderr, "stopping the shared API server: %v\n", err)
		if code == 0 {
			code = 1
		}
	}
	return code
}
