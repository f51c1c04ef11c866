//go:build ignore

// Command crdvalidate is codegen's CRD validation at one Kubernetes minor
// version, generated and built by package crdvalidate of
// github.com/gatedcrd/gatedcrd/tools. The package admission next to it is
// a copy of that module's package admission, compiled here against this
// version's k8s.io/apiextensions-apiserver.
//
// The first argument selects a mode:
//
//	crdvalidate validate
//
// validate reads a stream of JSON admission.Request values from standard
// input and writes one JSON admission.Outcome per request, in order, one
// per line, to standard output, until standard input ends.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"gatedcrd.invalid/crdvalidate/admission"
)

// modes maps the first argument to what the program does; each returns
// the exit status.
var modes = map[string]func(args []string) int{
	"validate": validate,
}

func main() {
	if len(os.Args) < 2 || modes[os.Args[1]] == nil {
		fmt.Fprintln(os.Stderr, "usage: crdvalidate validate <requests >outcomes")
		os.Exit(2)
	}
	os.Exit(modes[os.Args[1]](os.Args[2:]))
}

func validate(args []string) int {
	if len(args) > 0 {
		fmt.Fprintln(os.Stderr, "usage: crdvalidate validate <requests >outcomes")
		return 2
	}
	in := json.NewDecoder(bufio.NewReader(os.Stdin))
	out := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(out)
	for {
		var r admission.Request
		if err := in.Decode(&r); errors.Is(err, io.EOF) {
			return 0
		} else if err != nil {
			fmt.Fprintf(os.Stderr, "crdvalidate: reading a request: %v\n", err)
			return 1
		}
		if err := enc.Encode(admission.Validate(r)); err != nil {
			fmt.Fprintf(os.Stderr, "crdvalidate: %v\n", err)
			return 1
		}
		// The parent waits for this answer before it sends more.
		if err := out.Flush(); err != nil {
			fmt.Fprintf(os.Stderr, "crdvalidate: %v\n", err)
			return 1
		}
	}
}
