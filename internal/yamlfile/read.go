package yamlfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// Parse reads the first YAML document of data and returns its root node,
// or nil when the document is empty or null: every reader treats an empty
// file as one that sets nothing, or says itself that it needs content. A
// syntax error is a problem at the line the YAML library names; ok is then
// false. Later documents are not read, as yaml.Unmarshal does not read
// them.
func (ps *Problems) Parse(data []byte) (root *yaml.Node, ok bool) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		ps.syntax(err)
		return nil, false
	}
	return documentRoot(&doc), true
}

// ParseOne is Parse for files that hold one document, so that a document
// appended after "---" is not silently ignored: a later document that is
// not empty is a problem at its line, saying that what (e.g. "a suite
// file") holds one document, and ok is false.
func (ps *Problems) ParseOne(data []byte, what string) (root *yaml.Node, ok bool) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil && !errors.Is(err, io.EOF) {
		ps.syntax(err)
		return nil, false
	}
	root = documentRoot(&doc)
	for {
		var extra yaml.Node
		err := dec.Decode(&extra)
		if errors.Is(err, io.EOF) {
			return root, true
		}
		if err != nil {
			ps.syntax(err)
			return nil, false
		}
		if n := documentRoot(&extra); n != nil {
			ps.Addf(n.Line, "", "%s holds one YAML document, found another", what)
			return nil, false
		}
	}
}

func (ps *Problems) syntax(err error) {
	line, msg := SyntaxError(err)
	ps.Addf(line, "", "invalid YAML: %s", msg)
}

// documentRoot is the root node of a document node, nil when there is none
// or it is null.
func documentRoot(doc *yaml.Node) *yaml.Node {
	if len(doc.Content) == 0 {
		return nil
	}
	root := resolve(doc.Content[0])
	if IsNull(root) {
		return nil
	}
	return root
}

// IsNull reports whether n is an explicit or empty null (through an
// alias, too).
func IsNull(n *yaml.Node) bool {
	n = resolve(n)
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

// resolve follows aliases to the node they name, so that an anchored value
// reads the same wherever it is used.
func resolve(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

// Describe names the kind of n for messages ("a mapping", "a list",
// "null", `the string "x"`, "the int 3"), so that a message saying what a
// value must be also says what it is.
func Describe(n *yaml.Node) string {
	switch n = resolve(n); n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return "null"
		case "!!str":
			return fmt.Sprintf("the string %q", n.Value)
		}
		return fmt.Sprintf("the %s %s", strings.TrimPrefix(n.Tag, "!!"), n.Value)
	}
	return "an unsupported YAML node"
}

// SyntaxError splits an error of the YAML library into the line it names
// (0 if none) and the rest of its message, without the "yaml: line N: "
// prefix.
func SyntaxError(err error) (int, string) {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	var n int
	if _, scanErr := fmt.Sscanf(msg, "line %d: ", &n); scanErr == nil {
		_, rest, _ := strings.Cut(msg, ": ")
		return n, rest
	}
	return 0, msg
}
