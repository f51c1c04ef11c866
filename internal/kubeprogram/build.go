package kubeprogram

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"text/template"
	"time"
)

// CacheEnv names the environment variable that overrides the cache
// directory (default: gatedcrd below the user's cache directory, e.g.
// ~/.cache/gatedcrd).
const CacheEnv = "GATEDCRD_CACHE"

// CacheDir returns the directory below which programs are built and kept:
// $GATEDCRD_CACHE, or else gatedcrd in os.UserCacheDir().
func CacheDir() (string, error) {
	if dir := os.Getenv(CacheEnv); dir != "" {
		return filepath.Abs(dir)
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory (set %s): %w", CacheEnv, err)
	}
	return filepath.Join(dir, "gatedcrd"), nil
}

// Program is the source of one program at one version.
type Program struct {
	// Name names the program: its cache directory and its file name.
	Name string
	// Description says what it is, for progress lines and errors, e.g.
	// "the API server".
	Description string
	// Version is the Kubernetes version it is built for.
	Version Version
	// Files are the module's files by slash-separated path: go.mod (see
	// GoMod), main.go and the packages it imports.
	Files map[string][]byte
}

// BuildOptions configure Build.
type BuildOptions struct {
	// CacheDir is where programs are kept (default CacheDir()).
	CacheDir string
	// Go is the go command (default "go" from PATH).
	Go string
	// Progress receives a line when a program must be built, and how long
	// it took; nil discards them.
	Progress io.Writer
}

// Build returns the path of the program p, building it first unless the
// cache has it. Its module is <cache>/<p.Name>/<minor>-<hash>/, where hash
// covers the module's files and the toolchain (see Hash), and the program
// is the file p.Name in it.
//
// Building resolves the module's requirements through the module proxy
// (GOPROXY, GOFLAGS and the rest of the go environment apply) and
// compiles it; the entry appears only once complete, so an interrupted
// build leaves nothing that a later run would trust. Builds are
// serialised by a lock file, across processes too: they are heavy, and a
// second process waiting for the same version then finds it built.
func Build(ctx context.Context, p Program, opts BuildOptions) (string, error) {
	if opts.Go == "" {
		opts.Go = "go"
	}
	if opts.CacheDir == "" {
		dir, err := CacheDir()
		if err != nil {
			return "", err
		}
		opts.CacheDir = dir
	}
	toolchain, err := Toolchain(ctx, opts.Go)
	if err != nil {
		return "", err
	}
	v := p.Version
	root := filepath.Join(opts.CacheDir, p.Name)
	entry := filepath.Join(root, v.Minor+"-"+Hash(p.Files, toolchain))
	program := filepath.Join(entry, p.Name)
	if Built(program) {
		return program, nil
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", err
	}
	unlock, err := LockFile(ctx, filepath.Join(root, ".build.lock"))
	if err != nil {
		return "", err
	}
	defer unlock()
	if Built(program) { // built by another process while this one waited
		return program, nil
	}
	start := time.Now()
	if opts.Progress != nil {
		fmt.Fprintf(opts.Progress, "building %s of Kubernetes %s (k8s.io/apiextensions-apiserver %s, etcd %s) into %s; later runs reuse it\n",
			p.Description, v.Minor, v.APIExtensions, v.Etcd, entry)
	}
	if err := BuildModule(ctx, opts.Go, root, entry, p.Name, p.Files); err != nil {
		return "", fmt.Errorf("building %s of Kubernetes %s: %w\n%s", p.Description, v.Minor, err, buildHint(p, toolchain))
	}
	if opts.Progress != nil {
		fmt.Fprintf(opts.Progress, "built %s of Kubernetes %s in %v\n", p.Description, v.Minor, time.Since(start).Round(time.Second))
	}
	return program, nil
}

// buildHint says what a failed build needed, so that a user can act on
// the go command's message: which go ran, what it had to fetch, and the
// release that needs no build at all.
func buildHint(p Program, toolchain string) string {
	v := p.Version
	goVersion, _, _ := strings.Cut(toolchain, "\n")
	return fmt.Sprintf("(%s of Kubernetes %s is built once with the go command on PATH, %s, with GOTOOLCHAIN=local, so that go must be at least as new as the go line of k8s.io/apiextensions-apiserver %s; "+
		"it fetches that module, etcd %s and their requirements through the Go module proxy (GOPROXY, GOFLAGS apply). "+
		"Kubernetes %s, which this tool links, needs no build.)", capitalize(p.Description), v.Minor, goVersion, v.APIExtensions, v.Etcd, Linked)
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// Hash identifies a program build: the module's files and the toolchain
// (go version, GOOS, GOARCH) that compiles them. A change to a copied
// package, to the program or to the version table yields another hash,
// hence another cache entry.
func Hash(files map[string][]byte, toolchain string) string {
	h := sha256.New()
	fmt.Fprintf(h, "toolchain %s\n", toolchain)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		fmt.Fprintf(h, "file %s %d\n", name, len(files[name]))
		h.Write(files[name])
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// goModTemplate pins the version's apiextensions-apiserver and etcd; the
// go command resolves everything else from their requirements (minimal
// version selection), as it would for any module that requires them.
var goModTemplate = template.Must(template.New("go.mod").Parse(`module {{.Path}}

go 1.23.0

require (
	go.etcd.io/etcd/server/v3 {{.Etcd}}
	k8s.io/apiextensions-apiserver {{.APIExtensions}}
)
`))

// GoMod returns the go.mod of a program module at modulePath for v. It
// requires the etcd release of v even when the program does not use etcd:
// then every program of v selects the same module versions, and shares the
// compiled packages in the go build cache.
func GoMod(modulePath string, v Version) []byte {
	var b bytes.Buffer
	_ = goModTemplate.Execute(&b, struct {
		Path string
		Version
	}{modulePath, v})
	return b.Bytes()
}

// BuildModule builds a program module into the cache entry directory
// entry, a subdirectory of root: it writes files (by slash-separated path)
// into a fresh temporary directory of root, runs `go build -mod=mod -o
// program .` there (with RunGo) and renames the directory to entry, which
// thus appears only once complete. It removes an incomplete entry left
// at entry first. The caller holds the lock of root (LockFile) and has
// found no program in entry (Built).
func BuildModule(ctx context.Context, goCmd, root, entry, program string, files map[string][]byte) error {
	if err := os.RemoveAll(entry); err != nil { // an incomplete entry of an old layout
		return err
	}
	tmp, err := os.MkdirTemp(root, ".build-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	for name, data := range files {
		path := filepath.Join(tmp, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return err
		}
	}
	// -mod=mod lets the go command complete go.mod and go.sum from the
	// pinned requirements. The flags are the go command's defaults
	// otherwise, so the compiled Kubernetes packages come from the go build
	// cache whenever another build has compiled the same versions.
	if _, err := RunGo(ctx, goCmd, tmp, "build", "-mod=mod", "-o", program, "."); err != nil {
		return err
	}
	return os.Rename(tmp, entry)
}

// RunGo runs the go command goCmd with args in dir ("": the current
// directory) and returns its standard output, also when it fails; the
// error then has the command line and its standard error. It runs
// outside any workspace (GOWORK=off), as a program module is part of none,
// and with the local toolchain (GOTOOLCHAIN=local): the go line of a
// supported Kubernetes release never asks for a newer one than this
// module's own go line, but the go on PATH can be older than the one that
// compiled the tool, and then Build's error says so (buildHint).
func RunGo(ctx context.Context, goCmd, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, goCmd, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOTOOLCHAIN=local")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), fmt.Errorf("%s %s: %w\n%s", goCmd, strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
}

// Built reports whether program, the program file of a cache entry, is
// a regular file. BuildModule renames an entry into place only once
// complete, so a program there is ready to run.
func Built(program string) bool {
	info, err := os.Stat(program)
	return err == nil && info.Mode().IsRegular()
}
