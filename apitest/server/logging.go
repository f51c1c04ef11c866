package server

import (
	"flag"
	"io"
	"os"
	"strconv"
	"sync"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"k8s.io/klog/v2"
)

// VerboseEnv names the environment variable that turns on the logs of etcd
// and the API server for servers started by Shared (and by Start when
// Options.Verbosity is zero). Its value is a klog verbosity: "0" or unset
// keeps the server quiet, "1" shows warnings and informational messages,
// higher values add klog's debug levels.
const VerboseEnv = "GATEDCRD_APITEST_VERBOSE"

// verbosityFromEnv reads VerboseEnv. Anything that is not a non-negative
// integer counts as 1, so that "true" or "yes" work too.
func verbosityFromEnv() int {
	value := os.Getenv(VerboseEnv)
	if value == "" {
		return 0
	}
	n, err := strconv.Atoi(value)
	if err != nil || n < 0 {
		return 1
	}
	return n
}

// tailSize bounds the log text kept in quiet mode.
const tailSize = 64 << 10

// LogTail keeps the last 64 KiB written to it. In quiet mode all logs go
// there, so that a server that fails to start can still explain itself in
// its error without having flooded the test output before. Package
// kubeversion keeps the output of a server program in one too.
type LogTail struct {
	mu  sync.Mutex
	buf []byte
}

func (t *LogTail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - tailSize; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

func (t *LogTail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

// processLog is the log destination shared by everything in this process
// that logs through klog. klog is process-wide, so it is configured once,
// by the first server to start; later servers reuse the destination.
var processLog struct {
	once   sync.Once
	writer io.Writer
	tail   *LogTail // nil in verbose mode
}

// setUpLogging routes klog to the chosen destination and returns the
// writer that etcd's logger should use as well. verbosity 0 sends
// everything to an in-memory tail; otherwise logs go to out at klog level
// verbosity-1 (so 1 means klog's default level 0).
func setUpLogging(verbosity int, out io.Writer) (io.Writer, *LogTail) {
	processLog.once.Do(func() {
		if verbosity == 0 {
			processLog.tail = &LogTail{}
			processLog.writer = processLog.tail
		} else {
			if out == nil {
				out = os.Stderr
			}
			processLog.writer = out
		}
		// klog's settings are only reachable through its flags. A private
		// flag set keeps them off the test binary's command line.
		flags := flag.NewFlagSet("klog", flag.ContinueOnError)
		klog.InitFlags(flags)
		for name, value := range map[string]string{
			"logtostderr":     "false",
			"alsologtostderr": "false",
			"stderrthreshold": "FATAL",
			"one_output":      "true",
			"v":               strconv.Itoa(max(verbosity-1, 0)),
		} {
			_ = flags.Set(name, value) // all of these flags exist in klog/v2
		}
		klog.SetOutput(processLog.writer)
	})
	return processLog.writer, processLog.tail
}

// etcdLogger builds the zap logger handed to the embedded etcd server.
// Quiet servers keep warnings and errors (in the tail); verbose ones log
// informational messages too.
func etcdLogger(w io.Writer, verbose bool) *zap.Logger {
	level := zapcore.WarnLevel
	if verbose {
		level = zapcore.InfoLevel
	}
	encoder := zapcore.NewConsoleEncoder(zap.NewDevelopmentEncoderConfig())
	core := zapcore.NewCore(encoder, zapcore.AddSync(w), level)
	return zap.New(core).Named("etcd")
}
