package crdvalidate

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gatedcrd/gatedcrd/internal/kubeprogram"
	"github.com/gatedcrd/gatedcrd/tools/pkg/crdvalidate/admission"
)

// VerdictsDirName is the directory of the verdict cache below the
// gatedcrd cache directory.
const VerdictsDirName = "crd-verdicts"

// Verdicts is a persistent cache of the server's outcomes: one small JSON
// file per request, below <dir>/<server ID>/, named after the SHA-256 of
// everything the outcome depends on: the server (release and build of the
// validation code, Server's ID), the manifest and its previous version as
// parsed, but for the text of their schema descriptions (fingerprint,
// requestKeys), whether it is sent as JSON and whether costs were asked
// for. A verify or update that changed nothing, or only descriptions,
// validates nothing again; any other change to a CRD is another key. Entries are written atomically (temporary file, then rename), so
// concurrent runs share the cache safely; an unreadable entry is a miss.
type Verdicts struct {
	dir string
}

// OpenVerdicts returns the cache kept in dir (created on the first
// write).
func OpenVerdicts(dir string) *Verdicts {
	return &Verdicts{dir: dir}
}

// identified is a Server whose outcomes may be cached: ID names its
// release and build.
type identified interface {
	ID() string
}

// cached is a Server that answers from the cache and records the outcomes
// of server.
type cached struct {
	server Server
	dir    string
	hits   atomic.Int32
}

// wrap returns server behind the cache, or server itself when it cannot
// say what it is.
func (v *Verdicts) wrap(server Server) Server {
	id, ok := server.(identified)
	if v == nil || !ok || id.ID() == "" {
		return server
	}
	return &cached{server: server, dir: filepath.Join(v.dir, id.ID())}
}

// Validate answers r from the entry named after its exact bytes.
func (c *cached) Validate(r admission.Request) (admission.Outcome, error) {
	return c.validate(requestKey(r), func() (admission.Request, error) { return r, nil })
}

// validate answers from the entry key names, or else asks the server the
// request made by request (only then: making it costs) and records the
// outcome there.
func (c *cached) validate(key string, request func() (admission.Request, error)) (admission.Outcome, error) {
	path := filepath.Join(c.dir, key+".json")
	var out admission.Outcome
	if data, err := os.ReadFile(path); err == nil && json.Unmarshal(data, &out) == nil && (out.Verdict != nil || out.Error != "") {
		c.hits.Add(1)
		return out, nil
	}
	out, err := validateWith(c.server, request)
	if err != nil {
		return out, err
	}
	// The cache only saves time: a failure to write it is not the run's.
	if data, err := json.Marshal(out); err == nil {
		writeAtomic(path, data)
	}
	return out, nil
}

// validateWith asks server the request made by request.
func validateWith(server Server, request func() (admission.Request, error)) (admission.Outcome, error) {
	r, err := request()
	if err != nil {
		return admission.Outcome{}, err
	}
	return server.Validate(r)
}

// requestKey hashes what decides an outcome besides the server.
func requestKey(r admission.Request) string {
	h := sha256.New()
	field := func(name string, data []byte) {
		if data == nil {
			fmt.Fprintf(h, "%s none\n", name)
			return
		}
		fmt.Fprintf(h, "%s %d\n", name, len(data))
		h.Write(data)
	}
	field("data", r.Data)
	field("previous", r.Previous)
	fmt.Fprintf(h, "costs %t\n", r.Costs)
	return hex.EncodeToString(h.Sum(nil))
}

func writeAtomic(path string, data []byte) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
}

// ID identifies the linked release's validation: its Kubernetes minor,
// package admission's source, the versions of the modules this binary
// links (k8s.io and the CEL library among them) and the Go release that
// compiled it. It is "" when the binary carries no build information;
// then its verdicts are not cached.
func (linked) ID() string { return linkedID() }

var linkedID = sync.OnceValue(func() string {
	info, ok := debug.ReadBuildInfo()
	source, err := admission.Source()
	if !ok || err != nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "kube %s go %s", LinkedKubeVersion, runtime.Version())
	for _, d := range info.Deps {
		if d.Replace != nil {
			d = d.Replace
		}
		fmt.Fprintf(&b, " %s@%s:%s", d.Path, d.Version, d.Sum)
	}
	return "linked-" + LinkedKubeVersion + "-" + kubeprogram.Hash(source, b.String())
})
