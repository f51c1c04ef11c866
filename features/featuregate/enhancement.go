package featuregate

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// LegacyEnhancementSentinel is the enhancement value of gates that existed
// before enhancement links were required. A registry accepts it only for the
// names given to [WithLegacyFeatureGates], so that new gates cannot use it.
const LegacyEnhancementSentinel = "FeatureGate predates 4.18"

// DefaultEnhancementPrefixes returns the URL prefixes a registry accepts for
// enhancement links unless [WithEnhancementPrefixes] says otherwise:
// OpenShift enhancement pull requests, Kubernetes enhancement issues and
// OVN-Kubernetes pull requests. A new slice is returned on each call.
func DefaultEnhancementPrefixes() []string {
	return []string{
		"https://github.com/openshift/enhancements/pull/",
		"https://github.com/kubernetes/enhancements/issues/",
		"https://github.com/ovn-kubernetes/ovn-kubernetes/pull/",
	}
}

// checkEnhancement applies the enhancement rule of the registry to one gate.
func (r *Registry) checkEnhancement(name FeatureGateName, value string) error {
	switch {
	case value == "":
		return errors.New("enhancement PR is not set")
	case value == LegacyEnhancementSentinel:
		if !r.legacyGates[name] {
			return fmt.Errorf("enhancement %q is only allowed for legacy gates, and this gate is not on the registry's legacy list", value)
		}
		return nil
	}
	if _, err := url.Parse(value); err != nil {
		return fmt.Errorf("enhancement PR %q is not a valid URL: %v", value, err)
	}
	for _, prefix := range r.enhancementPrefixes {
		// The prefix alone names a list, not an enhancement.
		if rest, ok := strings.CutPrefix(value, prefix); ok && rest != "" {
			return nil
		}
	}
	return fmt.Errorf("enhancement PR %q does not start with one of %s followed by an identifier",
		value, strings.Join(r.enhancementPrefixes, ", "))
}
