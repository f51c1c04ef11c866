package corpus

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/txtar"
)

// A case file is a txtar archive. Its comment section holds one directive
// per line:
//
//	# text                          description, for readers
//	args: <words>                   codegen arguments, split at spaces outside '...';
//	                                $TREE is the tree
//	exit: <n>                       expected exit status (never 0)
//	want: <text>                    stderr must contain text ($TREE is substituted)
//	bug: <text>                     a known bug makes a want: line fail; the case
//	                                still runs, its other checks still apply, and
//	                                it fails once every want: line holds
//	delete: <path>                  remove a file or directory of the base tree
//	mkdir: <path>                   create a directory
//	replace <path>: <old> => <new>  replace the only occurrence of old in path
//	inject <name>: <line>           put line where the base has the placeholder
//	                                "// +corpus:placeholder=<name>", indented like it
//
// The archive's files are written into the tree, replacing base files of the
// same path. Edits apply in the order delete, files, mkdir, replace, inject.
// Several inject lines for one placeholder are inserted in order; a
// placeholder nothing is injected at stays (it is an inert marker that no
// stage reads and that descriptions leave out).

// placeholderPrefix starts every placeholder line of the base tree.
const placeholderPrefix = "// +corpus:placeholder="

// Case is one parsed case file.
type Case struct {
	// Name is the path below testdata/cases without ".txtar".
	Name    string
	Comment []string
	Args    []string
	Exit    int
	Want    []string
	Bug     string
	Delete  []string
	Mkdir   []string
	Replace []Replacement
	Inject  []Injection
	Files   []txtar.File
}

// Replacement replaces Old by New in the file Path.
type Replacement struct{ Path, Old, New string }

// Injection puts Line at the placeholder Name.
type Injection struct{ Name, Line string }

// ParseCase parses the content of a case file.
func ParseCase(name string, data []byte) (*Case, error) {
	ar := txtar.Parse(data)
	c := &Case{Name: name, Files: ar.Files, Exit: -1}
	sc := bufio.NewScanner(strings.NewReader(string(ar.Comment)))
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		bad := func(format string, args ...any) error {
			return fmt.Errorf("%s.txtar:%d: %s", name, n, fmt.Sprintf(format, args...))
		}
		switch {
		case strings.TrimSpace(line) == "":
		case strings.HasPrefix(line, "#"):
			c.Comment = append(c.Comment, strings.TrimSpace(strings.TrimPrefix(line, "#")))
		case strings.HasPrefix(line, "args:"):
			args, err := splitArgs(strings.TrimPrefix(line, "args:"))
			if err != nil {
				return nil, bad("args: %v", err)
			}
			c.Args = args
		case strings.HasPrefix(line, "exit:"):
			v, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(line, "exit:")))
			if err != nil {
				return nil, bad("exit: %v", err)
			}
			c.Exit = v
		case strings.HasPrefix(line, "want: "):
			c.Want = append(c.Want, strings.TrimPrefix(line, "want: "))
		case strings.HasPrefix(line, "bug: "):
			c.Bug = strings.TrimPrefix(line, "bug: ")
		case strings.HasPrefix(line, "delete: "):
			c.Delete = append(c.Delete, strings.TrimPrefix(line, "delete: "))
		case strings.HasPrefix(line, "mkdir: "):
			c.Mkdir = append(c.Mkdir, strings.TrimPrefix(line, "mkdir: "))
		case strings.HasPrefix(line, "replace "):
			path, rest, ok := strings.Cut(strings.TrimPrefix(line, "replace "), ": ")
			old, new, ok2 := strings.Cut(rest, " => ")
			if !ok || !ok2 || old == "" {
				return nil, bad("want replace <path>: <old> => <new>")
			}
			c.Replace = append(c.Replace, Replacement{Path: path, Old: old, New: new})
		case strings.HasPrefix(line, "inject "):
			name, text, ok := strings.Cut(strings.TrimPrefix(line, "inject "), ": ")
			if !ok {
				return nil, bad("want inject <placeholder>: <line>")
			}
			c.Inject = append(c.Inject, Injection{Name: name, Line: text})
		default:
			return nil, bad("unknown directive %q", line)
		}
	}
	switch {
	case len(c.Args) == 0:
		return nil, fmt.Errorf("%s.txtar: no args: line", name)
	case c.Exit <= 0:
		return nil, fmt.Errorf("%s.txtar: exit: must be given and non-zero", name)
	case len(c.Want) == 0:
		return nil, fmt.Errorf("%s.txtar: no want: line", name)
	}
	return c, nil
}

// Format renders a case as a case file; ParseCase(Format(c)) == c.
func (c *Case) Format() []byte {
	var b strings.Builder
	for _, l := range c.Comment {
		b.WriteString("# " + l + "\n")
	}
	b.WriteString("args: " + joinArgs(c.Args) + "\n")
	fmt.Fprintf(&b, "exit: %d\n", c.Exit)
	for _, d := range c.Delete {
		b.WriteString("delete: " + d + "\n")
	}
	for _, d := range c.Mkdir {
		b.WriteString("mkdir: " + d + "\n")
	}
	for _, r := range c.Replace {
		b.WriteString("replace " + r.Path + ": " + r.Old + " => " + r.New + "\n")
	}
	for _, in := range c.Inject {
		b.WriteString("inject " + in.Name + ": " + in.Line + "\n")
	}
	for _, w := range c.Want {
		b.WriteString("want: " + w + "\n")
	}
	if c.Bug != "" {
		b.WriteString("bug: " + c.Bug + "\n")
	}
	return txtar.Format(&txtar.Archive{Comment: []byte(b.String()), Files: c.Files})
}

// Apply turns the copy of the base tree at dir into the case's tree. It
// returns where each injected line landed: placeholder name → "path:line"
// for each of its lines, paths relative to dir with forward slashes.
func (c *Case) Apply(dir string) (map[string][]string, error) {
	for _, d := range c.Delete {
		p := filepath.Join(dir, filepath.FromSlash(d))
		if _, err := os.Lstat(p); err != nil {
			return nil, fmt.Errorf("delete: %s is not in the base tree", d)
		}
		if err := os.RemoveAll(p); err != nil {
			return nil, err
		}
	}
	for _, f := range c.Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			return nil, err
		}
	}
	for _, d := range c.Mkdir {
		if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(d)), 0o755); err != nil {
			return nil, err
		}
	}
	for _, r := range c.Replace {
		p := filepath.Join(dir, filepath.FromSlash(r.Path))
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("replace: %v", err)
		}
		if n := strings.Count(string(data), r.Old); n != 1 {
			return nil, fmt.Errorf("replace: %q occurs %d times in %s, want once", r.Old, n, r.Path)
		}
		if err := os.WriteFile(p, []byte(strings.Replace(string(data), r.Old, r.New, 1)), 0o644); err != nil {
			return nil, err
		}
	}
	return injectDir(dir, c.Inject)
}

// injectDir applies injections to the Go files below dir.
func injectDir(dir string, injections []Injection) (map[string][]string, error) {
	if len(injections) == 0 {
		return map[string][]string{}, nil
	}
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = string(data)
		return nil
	})
	if err != nil {
		return nil, err
	}
	changed, pos, err := inject(files, injections)
	if err != nil {
		return nil, err
	}
	for rel, content := range changed {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(rel)), []byte(content), 0o644); err != nil {
			return nil, err
		}
	}
	return pos, nil
}

// inject replaces placeholder lines in files (relative path → content) and
// returns the changed files and the position of every injected line.
func inject(files map[string]string, injections []Injection) (map[string]string, map[string][]string, error) {
	byName := map[string][]string{}
	var order []string
	for _, in := range injections {
		if _, ok := byName[in.Name]; !ok {
			order = append(order, in.Name)
		}
		byName[in.Name] = append(byName[in.Name], in.Line)
	}
	found := map[string]string{}
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	changed := map[string]string{}
	pos := map[string][]string{}
	for _, p := range paths {
		lines := strings.Split(files[p], "\n")
		var out []string
		touched := false
		for _, l := range lines {
			trimmed := strings.TrimSpace(l)
			name, ok := strings.CutPrefix(trimmed, placeholderPrefix)
			if !ok || byName[name] == nil {
				out = append(out, l)
				continue
			}
			if prev, dup := found[name]; dup {
				return nil, nil, fmt.Errorf("placeholder %s appears in %s and %s", name, prev, p)
			}
			found[name] = p
			touched = true
			indent := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
			for _, text := range byName[name] {
				out = append(out, indent+text)
				pos[name] = append(pos[name], fmt.Sprintf("%s:%d", p, len(out)))
			}
		}
		if touched {
			changed[p] = strings.Join(out, "\n")
		}
	}
	for _, name := range order {
		if _, ok := found[name]; !ok {
			return nil, nil, fmt.Errorf("no placeholder %q in the base tree", name)
		}
	}
	return changed, pos, nil
}

// splitArgs splits s at spaces; '...' quotes an argument holding spaces or
// nothing.
func splitArgs(s string) ([]string, error) {
	var out []string
	var cur strings.Builder
	inWord, quoted := false, false
	for _, r := range s {
		switch {
		case r == '\'':
			quoted = !quoted
			inWord = true
		case r == ' ' && !quoted:
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quoted {
		return nil, fmt.Errorf("unterminated quote in %q", s)
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out, nil
}

// joinArgs is the inverse of splitArgs.
func joinArgs(args []string) string {
	quoted := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " '") {
			a = "'" + a + "'"
		}
		quoted[i] = a
	}
	return strings.Join(quoted, " ")
}
