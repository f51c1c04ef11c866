// Package yamlfile is the one strict reader of the YAML files gatedcrd's
// tools check (.gatedcrd.yaml, .codegen.yaml, the strict baseline, API
// test suites and their skip lists), and reports what is wrong in them in
// one form: a diag.Diagnostic with the file, the line and the dotted key
// at fault, rendered "file:line: key: message".
//
// The files are read as yaml.Node trees (go.yaml.in/yaml/v3) rather than
// decoded into structs, since only the node tree keeps the line of every
// key and value (a struct decoder's unknown-field error is all that names
// one), and shows a key given twice (which value would win is up to the
// decoder). Problems.Parse and ParseOne read a document, taking the line
// out of a syntax error; an empty or null document is no root. A Reader
// walks a mapping with its known keys (Fields, Each), rejecting repeated
// keys and reporting unknown ones with the keys it knows, through policies
// a reader can replace: .codegen.yaml's unknown keys are strict-mode
// findings, and lenient suites accept what openshift/api's runner does. A
// null value is a key left out. String, NonEmpty, Bool, Int, List and
// Strings read single values with one wording ("must be a string, not a
// list"). Each reader keeps its own messages about what its keys mean.
package yamlfile
