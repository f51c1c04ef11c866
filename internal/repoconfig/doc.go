// Package repoconfig reads the repository configuration file
// <base-dir>/.gatedcrd.yaml: the settings that concern the whole API
// repository rather than one API group (those live in each group's
// .codegen.yaml).
//
// The file is parsed strictly: an unknown key, a key given twice or a value
// of the wrong shape is an error naming the file and line, because a typo in
// a configuration file otherwise silently selects the default. A missing
// file means "all defaults".
//
// The package lives in the root module, without heavy dependencies, so that
// the tools and apitest modules can both import it.
//
// Adding a key: add a field to Config, its default to Defaults, and one
// entry to the sections table in parse.go.
package repoconfig
