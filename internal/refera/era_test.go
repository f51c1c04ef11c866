package refera

import (
	"strings"
	"testing"
)

func TestParseEra(t *testing.T) {
	for _, e := range Eras() {
		if got, err := ParseEra(string(e)); err != nil || got != e {
			t.Errorf("ParseEra(%q) = %q, %v", e, got, err)
		}
	}
	for in, want := range map[string]Era{
		"2026-01":    Era202601,
		"2026-02":    Era202602,
		"2026-03":    Era202603,
		"2025-09-01": Era202509,
		"2025-10-20": Era(StableMergeOrder.Date),
		"2025-11-05": Era(TypeMarkersAcrossPackages.Date),
		"2026-02-20": Era(GatedCRDsInOneFile.Date),
		"2026-12-02": Era(AtomicValidations.Date),
	} {
		if got, err := ParseEra(in); err != nil || got != want {
			t.Errorf("ParseEra(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"2026-04", "2025-08-31", "2026-13-01", ""} {
		_, err := ParseEra(bad)
		if err == nil || !strings.Contains(err.Error(), "known eras are 2025-09, 2025-10-09, 2025-11-05") {
			t.Errorf("ParseEra(%q) = %v, want an error listing the eras", bad, err)
		}
	}
}

func TestHasAndVersioned(t *testing.T) {
	var versioned []string
	for _, e := range Eras() {
		if e.Versioned() {
			versioned = append(versioned, string(e))
		}
	}
	if strings.Join(versioned, " ") != "2026-02-23 2026-03-20" {
		t.Errorf("versioned eras %q", versioned)
	}
	if Era202509.Has(StableMergeOrder) || !Era202601.Has(StableMergeOrder) || Era202601.Has(VersionAware) {
		t.Error("Has does not follow the change dates")
	}
	if e := Era(""); !e.Has(AtomicValidations) || e.Versioned() {
		t.Error("the empty era (not yet told) has every change, but says nothing of the payload format")
	}
}
