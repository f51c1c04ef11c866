package manifest

// File is a manifest file as one stage hands it to the next in the same
// process: its path, its bytes as the tree holds them, and its object
// exactly as Parse(Data) would return it (numbers are float64, as after a
// JSON round trip). A stage reading a handed-over File needs neither the
// tree nor a YAML parser.
type File struct {
	// Path is the absolute path of the file.
	Path string
	Data []byte
	// Object is Parse(Data); nil when ParseErr is set.
	Object map[string]any
	// ParseErr is the error of Parse(Data), for a file that was read but
	// is not a YAML document.
	ParseErr error
}

// FileReader reads file contents: a tree.Tree, or the disk.
type FileReader interface {
	ReadFile(path string) ([]byte, error)
}

// Reader reads manifest files for a stage: those an earlier stage of the
// same process handed over are returned as they are, any other file is
// read through FS and parsed. The separate sub-commands hand nothing over
// and so read every file; one process reads and parses each file once.
type Reader struct {
	FS     FileReader
	handed map[string]*File
}

// NewReader returns a Reader over fs that returns handed instead of
// reading their paths.
func NewReader(fs FileReader, handed []*File) *Reader {
	r := &Reader{FS: fs, handed: make(map[string]*File, len(handed))}
	for _, f := range handed {
		r.handed[f.Path] = f
	}
	return r
}

// Handed returns the file an earlier stage handed over for path, if any.
// It was parsed without error and holds exactly one document.
func (r *Reader) Handed(path string) (*File, bool) {
	f, ok := r.handed[path]
	return f, ok
}

// Read returns the file at path: the handed-over one, or the bytes read
// through FS with their parse result (File.ParseErr). The error is a read
// error.
func (r *Reader) Read(path string) (*File, error) {
	if f, ok := r.handed[path]; ok {
		return f, nil
	}
	data, err := r.FS.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseFile(path, data), nil
}

// ParseFile returns the File of path holding data, parsed.
func ParseFile(path string, data []byte) *File {
	return fileOf(path, data, Parse)
}

// fileOf returns the File of path holding data, parsed with parse.
func fileOf(path string, data []byte, parse func([]byte) (map[string]any, error)) *File {
	f := &File{Path: path, Data: data}
	f.Object, f.ParseErr = parse(data)
	if f.ParseErr != nil {
		f.Object = nil
	}
	return f
}
