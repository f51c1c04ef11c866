package suite

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/gatedcrd/gatedcrd/apitest/server"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// Installed is what a server holds between runs of plans that share it
// (see Options.Installed): the CRD each run left installed, one per name.
// A later run (or batch) whose variant has the same spec (but for the
// descriptions of its schemas, see sameBehaviour) runs its tests on that
// installation; one whose spec differs updates it in place when it can
// (server.Server.UpdateCRD) instead of deleting and creating it, which
// costs the server's waits for a new CRD (among them a delay of
// every create for 2 seconds after the CRD becomes Established).
//
// The tests stay isolated: every test deletes the objects it created,
// and an installation is kept only when none of its objects is left after
// a batch; otherwise the CRD is deleted (and its objects with it). An
// Installed is used by one run at a time.
type Installed struct {
	crds map[string]*keptCRD
}

// keptCRD is a CRD left installed.
type keptCRD struct {
	// variant's CRD is what was installed: a later variant with the same
	// spec but for descriptions runs on it (see sameBehaviour).
	variant *Variant
	// stored is the CRD as the server had it after the install or
	// update. A CRD whose UID or spec differs from it now was changed by
	// something else (an initialCRDPatches left unreverted), and is
	// replaced.
	stored *server.CRD
}

// NewInstalled returns an Installed for a server that holds no CRD of the
// plans yet.
func NewInstalled() *Installed {
	return &Installed{crds: map[string]*keptCRD{}}
}

// Names returns the names of the CRDs left installed, sorted.
func (in *Installed) Names() []string {
	names := make([]string, 0, len(in.crds))
	for name := range in.crds {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// Remove deletes every CRD left installed (see server.Server.DeleteCRDs).
func (in *Installed) Remove(ctx context.Context, srv *server.Server) error {
	names := in.Names()
	clear(in.crds)
	return srv.DeleteCRDs(ctx, names...)
}

// order returns the plan with, for each CRD name, the variants whose spec
// is installed (but for descriptions) moved to the first batch that holds the name, so that they
// run before the name's installation changes. The other variants keep
// their order.
func (in *Installed) order(p *Plan) *Plan {
	slots := map[string][][]*Variant{}
	for _, batch := range p.Batches {
		for _, slot := range byName(batch) {
			name := slot[0].CRD.Name
			slots[name] = append(slots[name], slot)
		}
	}
	for name, list := range slots {
		kept := in.crds[name]
		if kept == nil {
			continue
		}
		i := slices.IndexFunc(list, func(slot []*Variant) bool { return sameBehaviour(slot[0].CRD, kept.variant.CRD) })
		if i > 0 {
			slot := list[i]
			list = slices.Delete(list, i, i+1)
			slots[name] = slices.Insert(list, 0, slot)
		}
	}
	out := *p
	out.Batches = batches(slots)
	return &out
}

// prepare makes the server hold the CRD of every variant of a batch (one
// spec per name, see Plan.Batches), reusing or updating what is installed
// where it can, and installing the rest as a batch (see install). It
// returns the error of each variant whose CRD could not be installed.
func (in *Installed) prepare(ctx context.Context, srv *server.Server, batch []*Variant, stats *Stats) map[*Variant]error {
	errs := map[*Variant]error{}
	var fresh []*Variant
	for _, variants := range byName(batch) {
		reused, err := in.adopt(ctx, srv, variants[0], stats)
		for _, v := range variants {
			switch {
			case err != nil:
				errs[v] = fmt.Errorf("replacing the CRD installed before: %w", err)
			case !reused:
				fresh = append(fresh, v)
			}
		}
	}
	installErrs, installed := install(ctx, srv, fresh)
	for v, err := range installErrs {
		errs[v] = err
	}
	for _, crd := range installed {
		i := slices.IndexFunc(fresh, func(v *Variant) bool { return v.CRD.Name == crd.Name })
		in.crds[crd.Name] = &keptCRD{variant: fresh[i], stored: crd}
	}
	return errs
}

// adopt makes the installed CRD of v's name v's without installing it
// afresh when it can: it tells whether v's CRD is installed now, either
// because it already was or through an update in place. When it is not,
// no CRD of the name is left installed.
func (in *Installed) adopt(ctx context.Context, srv *server.Server, v *Variant, stats *Stats) (bool, error) {
	name := v.CRD.Name
	kept := in.crds[name]
	if kept == nil {
		return false, nil
	}
	delete(in.crds, name) // until it is known to be v's
	current, err := srv.GetCRD(ctx, name)
	if apierrors.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if current.UID == kept.stored.UID && equality.Semantic.DeepEqual(current.Spec, kept.stored.Spec) {
		if sameBehaviour(kept.variant.CRD, v.CRD) {
			in.crds[name] = kept
			stats.Kept++
			return true, nil
		}
		if updatable(kept, v) {
			// When the update fails, the CRD is replaced: its creation
			// then says what is wrong with it, as it does in a run
			// without Installed.
			if stored, err := srv.UpdateCRD(ctx, v.CRD); err == nil {
				in.crds[name] = &keptCRD{variant: v, stored: stored}
				stats.Updated++
				return true, nil
			}
		}
	}
	return false, srv.DeleteCRDs(ctx, name)
}

// sameBehaviour tells whether the server does the same with the objects
// of two CRDs of one name: their specs differ at most in the description
// of schema nodes (see withoutDescriptions). The installed one then stays
// as it is: updating it to the other's descriptions would cost an update
// and the server's wait for it, and change nothing a test sees.
func sameBehaviour(a, b *server.CRD) bool {
	return sameSpec(a, b) || sameSpec(withoutDescriptions(a), withoutDescriptions(b))
}

// updatable tells whether the installed CRD can become v's by an update
// in place (see server.Server.UpdateCRD): same names (the server
// revalidates changed names as it does a new CRD's, on its own
// schedule), same scope, and the same version, the only one the
// installed CRD has stored objects in.
func updatable(kept *keptCRD, v *Variant) bool {
	was := kept.variant.CRD.Spec
	now := v.CRD.Spec
	return kept.variant.Version == v.Version && was.Scope == now.Scope && equality.Semantic.DeepEqual(was.Names, now.Names)
}

// settle ends a batch: every CRD of it stays installed unless an object
// of it is left (a test could not delete what it created), in which case
// the CRD is deleted with its objects, so that no later test sees them.
func (in *Installed) settle(ctx context.Context, srv *server.Server, batch []*Variant) error {
	var errs []error
	for _, variants := range byName(batch) {
		v := variants[0]
		kept := in.crds[v.CRD.Name]
		if kept == nil {
			continue // not installed
		}
		left, err := srv.HasObjects(ctx, kept.stored, v.Version)
		if err == nil && !left {
			continue
		}
		delete(in.crds, v.CRD.Name)
		if err := srv.DeleteCRDs(ctx, v.CRD.Name); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
