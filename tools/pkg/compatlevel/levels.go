package compatlevel

import (
	"fmt"
	"regexp"
)

// Marker names.
const (
	levelMarker    = "+openshift:compatibility-gen:level"
	internalMarker = "+openshift:compatibility-gen:internal"
	linePrefix     = "Compatibility level "
)

// texts are the promises of each level.
var texts = map[int]string{
	1: "Stable within a major release for a minimum of 12 months or 3 minor releases (whichever is longer).",
	2: "Stable within a major release for a minimum of 9 months or 3 minor releases (whichever is longer).",
	3: "Will attempt to be as compatible from version to version as possible, but version to version compatibility is not guaranteed.",
	4: "No compatibility is provided, the API can change at any point for any reason. These capabilities should not be used by applications needing long term support.",
}

// Line is the comment text for level n.
func Line(n int) string { return fmt.Sprintf("%s%d: %s", linePrefix, n, texts[n]) }

// maturity classifies a version directory name.
type maturity int

const (
	other maturity = iota
	ga
	beta
	alpha
)

var (
	gaName    = regexp.MustCompile(`^v\d+$`)
	betaName  = regexp.MustCompile(`^v\d+beta\d+$`)
	alphaName = regexp.MustCompile(`^v\d+alpha\d+$`)
)

func maturityOf(version string) maturity {
	switch {
	case gaName.MatchString(version):
		return ga
	case betaName.MatchString(version):
		return beta
	case alphaName.MatchString(version):
		return alpha
	}
	return other
}

// decision is what the markers of one type ask for.
type decision struct {
	level    int // 0: not given
	internal bool
}

// allowed checks the markers of a type in a version directory and returns
// the level to write, or a message saying what is wrong.
func allowed(d decision, version string, exception bool) (int, string) {
	if d.internal {
		if d.level != 0 && d.level != 4 {
			return 0, fmt.Sprintf("internal types use level 4, not %d: drop %s=%d or write %s=4", d.level, levelMarker, d.level, levelMarker)
		}
		return 4, ""
	}
	want, name := 0, ""
	switch maturityOf(version) {
	case ga:
		want, name = 1, "a GA version"
		if exception && (d.level == 2 || d.level == 4) {
			return d.level, ""
		}
	case beta:
		want, name = 2, "a beta version"
	case alpha:
		want, name = 4, "an alpha version"
	default:
		return 0, fmt.Sprintf("version %q is neither GA (v1), beta (v1beta1) nor alpha (v1alpha1), so its types must be internal: add %s", version, internalMarker)
	}
	if d.level == 0 {
		return 0, fmt.Sprintf("has no compatibility level: add %s=%d (the level of %s such as %s) or %s", levelMarker, want, name, version, internalMarker)
	}
	if d.level != want {
		hint := ""
		if maturityOf(version) == ga && (d.level == 2 || d.level == 4) {
			hint = "; a historic GA type that must keep it needs an entry in compatibility.exceptions of .gatedcrd.yaml"
		}
		return 0, fmt.Sprintf("level %d is not allowed in %s like %s, which requires level %d%s", d.level, name, version, want, hint)
	}
	return d.level, ""
}
