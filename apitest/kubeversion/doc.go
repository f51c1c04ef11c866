// Package kubeversion runs the API test suites' server at a chosen
// Kubernetes minor version, 1.30 to 1.37, although one Go build can link
// only one version of k8s.io/apiextensions-apiserver.
//
// # Design
//
// The version this module links (Linked) runs inside the process, as
// package server does for go test. Every other version runs as a small
// program of its own:
//
//   - Its source is generated into a module of its own: a go.mod that
//     pins the version's k8s.io/apiextensions-apiserver release and the
//     etcd server release its k8s.io/apiserver requires (see Versions), a
//     main package embedded here (program/main.go), and a copy of package
//     server (server.Source). The program is therefore the very server of
//     the in-process path, compiled against another version's libraries.
//   - Build compiles it once with package kubeprogram of the root module
//     (shared with codegen, which builds its CRD validation program the
//     same way) and keeps it in a cache directory, $GATEDCRD_CACHE or else
//     gatedcrd below the user's cache directory:
//     <cache>/apiserver/<minor>-<hash>/apiserver, where the hash covers
//     the module's files and the toolchain. Nothing is downloaded but Go
//     modules. Builds are serialised by a lock file.
//   - Start runs the program once per run and connects to it over
//     loopback (server.Connect), so every helper of package server and the
//     suite runner work on it unchanged.
//
// # The program's interface
//
// The program's first argument selects a mode; main.go maps modes to
// functions, so a mode is added by adding an entry and a function, and
// the hash makes every cache entry of the old program obsolete.
//
//	apiserver serve [-v N]
//
// serve starts etcd and the apiextensions-apiserver on 127.0.0.1, on ports
// the kernel chooses, with their data in a private temporary directory.
// Once /readyz answers, it writes one line of JSON to standard output,
//
//	{"host":"https://127.0.0.1:PORT","bearerToken":"...","caData":"<base64 PEM>","serverName":"..."}
//
// the address, the bearer token of the server's privileged loopback user,
// and the CA and server name to verify its serving certificate with, and
// writes nothing else there. It runs until its standard input ends (the
// parent closed it, or died) or it receives SIGINT or SIGTERM; on Linux,
// Start also asks the kernel to send SIGTERM when the parent dies. Then
// it stops both servers, removes its directory and exits with status 0.
// A server that cannot start exits with status 1 after writing the tail
// of its logs to standard error. -v 1 and up write the logs to standard
// error as they come (see server.Options.Verbosity).
//
// Build returns the program's path, so that other code can run other
// modes of the same program.
package kubeversion
