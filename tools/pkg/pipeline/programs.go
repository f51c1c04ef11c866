package pipeline

import (
	"errors"
	"sync"

	"github.com/gatedcrd/gatedcrd/tools/pkg/crdvalidate"
)

// validationPrograms keeps the CRD validation programs of Kubernetes
// releases other than the linked one running across the runs that share
// it (Keep): codegen watch, whose cycles would otherwise each start the
// program's processes again on the first CRD the verdict cache does not
// know. A program that failed a run is closed
// and the next run starts a fresh one. The zero value is not usable; close
// ends every program kept.
type validationPrograms struct {
	mu   sync.Mutex
	open map[string]*crdvalidate.Program
}

// newValidationPrograms returns an empty keeper.
func newValidationPrograms() *validationPrograms {
	return &validationPrograms{open: map[string]*crdvalidate.Program{}}
}

// get returns the program kept for the release minor, starting it with
// start when none is.
func (k *validationPrograms) get(minor string, start func() (*crdvalidate.Program, error)) (*crdvalidate.Program, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if p, ok := k.open[minor]; ok {
		return p, nil
	}
	p, err := start()
	if err != nil {
		return nil, err
	}
	k.open[minor] = p
	return p, nil
}

// drop closes p and forgets it, if it is still the program kept for
// minor: its processes may be broken.
func (k *validationPrograms) drop(minor string, p *crdvalidate.Program) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.open[minor] == p {
		delete(k.open, minor)
		p.Close()
	}
}

// close ends every program kept.
func (k *validationPrograms) close() error {
	k.mu.Lock()
	defer k.mu.Unlock()
	var errs []error
	for minor, p := range k.open {
		errs = append(errs, p.Close())
		delete(k.open, minor)
	}
	return errors.Join(errs...)
}
