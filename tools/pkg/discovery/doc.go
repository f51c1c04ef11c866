// Package discovery finds the API group-versions a run works on.
//
// An API group-version is a Go package below the base directory that
// declares a package-level variable GroupVersion initialised with a
// schema.GroupVersion composite literal. Discovery only parses files (no
// type checking): it is cheap and runs before the one package load of a run.
// Of most files it reads only the package clause: a file is parsed whole
// when a line of it may declare GroupVersion, or when the literal names a
// constant the file mentions. The versions a run selects are then parsed
// whole, except files the package load leaves out under its build tags
// (deepcopy and swagger-doc files), and the load takes those syntax trees
// (Version.Files) instead of parsing the files again. So a syntax error
// stops a run only in a package the run works on.
//
// Packages are grouped by API group; each group has a directory (the common
// parent of its version packages) and an optional .codegen.yaml there that
// can switch stages off. Groups come out sorted by group name and versions by
// directory, so that every later step iterates in a deterministic order.
//
// Directories named .git, vendor or testdata, directories whose name starts
// with "." or "_", and nested Go modules (a directory with its own go.mod)
// are skipped, as the go command skips them for "./...".
package discovery
