//go:build ignore

// Command apiserver is the API server program of one Kubernetes minor
// version, generated and built by package kubeversion of
// github.com/gatedcrd/gatedcrd/apitest. The package server next to it is a
// copy of that module's package server, compiled here against this
// version's k8s.io/apiextensions-apiserver and etcd.
//
// The first argument selects a mode; see the documentation of package
// kubeversion for each mode's protocol.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"gatedcrd.invalid/apiserver/server"
)

// modes maps the first argument to what the program does. Each mode
// parses its own flags and returns the exit status.
var modes = map[string]func(args []string) int{
	"serve": serve,
}

func main() {
	if len(os.Args) < 2 || modes[os.Args[1]] == nil {
		fmt.Fprintln(os.Stderr, "usage: apiserver serve [-v N]")
		os.Exit(2)
	}
	os.Exit(modes[os.Args[1]](os.Args[2:]))
}

// handshake is the line serve writes to standard output once the server
// is ready: how to reach it.
type handshake struct {
	Host        string `json:"host"`
	BearerToken string `json:"bearerToken"`
	CAData      []byte `json:"caData"`
	ServerName  string `json:"serverName"`
}

// serve runs etcd and the apiextensions-apiserver on loopback until
// standard input ends (the parent closed it, or died) or a SIGINT or
// SIGTERM arrives, then stops them and removes their files.
func serve(args []string) int {
	flags := flag.NewFlagSet("serve", flag.ContinueOnError)
	verbosity := flags.Int("v", 0, "0 keeps the server's logs in memory (their tail is printed if it fails to start), 1 writes them to standard error, higher adds klog debug levels")
	if err := flags.Parse(args); err != nil {
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	s, err := server.Start(ctx, server.Options{Verbosity: *verbosity, LogOutput: os.Stderr})
	if err != nil {
		fmt.Fprintf(os.Stderr, "apiserver: %v\n", err)
		return 1
	}
	config := s.RESTConfig()
	err = json.NewEncoder(os.Stdout).Encode(handshake{
		Host:        config.Host,
		BearerToken: config.BearerToken,
		CAData:      config.CAData,
		ServerName:  config.ServerName,
	})
	if err == nil {
		stdinEnded := make(chan struct{})
		go func() {
			_, _ = io.Copy(io.Discard, os.Stdin)
			close(stdinEnded)
		}()
		select {
		case <-stdinEnded:
		case <-ctx.Done():
		}
	}
	if stopErr := s.Stop(); stopErr != nil {
		fmt.Fprintf(os.Stderr, "apiserver: stopping: %v\n", stopErr)
		return 1
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "apiserver: writing the handshake: %v\n", err)
		return 1
	}
	return 0
}
