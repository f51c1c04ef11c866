// Package yamlfile reads the YAML files gatedcrd's tools check strictly
// (.gatedcrd.yaml, .codegen.yaml, API test suites) and reports what is
// wrong in them as diag.Diagnostics with the file, the line and the dotted
// key at fault, rendered "file:line: key: message".
//
// The files are decoded into yaml.Node trees (go.yaml.in/yaml/v3) rather
// than into structs, since only the node tree keeps the line of every key
// and value, and shows a key given twice (which value would win is up to
// the decoder). Problems collects a file's problems; EachKey walks a
// mapping and rejects repeated keys; SyntaxError takes the line out of the
// YAML library's syntax errors. Each reader keeps its own messages about
// its keys.
package yamlfile
