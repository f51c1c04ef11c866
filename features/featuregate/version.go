package featuregate

import "fmt"

// The default version dimension. Version conditions other than "=" are
// clamped to it; "=" may name a version outside it, which then joins the
// dimension (see [Registry.Versions]).
const (
	MinVersion = 4
	MaxVersion = 10
)

// VersionOperator compares a major version with the bound given to
// [InVersion].
type VersionOperator string

const (
	VersionEqual              VersionOperator = "="
	VersionGreaterThan        VersionOperator = ">"
	VersionGreaterThanOrEqual VersionOperator = ">="
	VersionLessThan           VersionOperator = "<"
	VersionLessThanOrEqual    VersionOperator = "<="
)

// expandVersionCondition returns the versions selected by "op v".
//
// Only "=" can select a version outside MinVersion..MaxVersion; the other
// operators are clamped to that range, because "from version 5 on" means "up to
// the newest version we render", not "forever". A condition that selects
// nothing is an error rather than an empty set, since an empty version set
// would silently mean "every version".
func expandVersionCondition(v int, op VersionOperator) ([]int, error) {
	if v < 1 {
		return nil, fmt.Errorf("version condition %q %d: major versions are positive integers", op, v)
	}
	lo, hi := MinVersion, MaxVersion
	switch op {
	case VersionEqual:
		return []int{v}, nil
	case VersionGreaterThan:
		lo = max(lo, v+1)
	case VersionGreaterThanOrEqual:
		lo = max(lo, v)
	case VersionLessThan:
		hi = min(hi, v-1)
	case VersionLessThanOrEqual:
		hi = min(hi, v)
	default:
		return nil, fmt.Errorf("version condition %q %d: unknown operator (want one of =, >, >=, <, <=)", op, v)
	}
	if lo > hi {
		return nil, fmt.Errorf("version condition %q %d selects no version in %d..%d", op, v, MinVersion, MaxVersion)
	}
	versions := make([]int, 0, hi-lo+1)
	for i := lo; i <= hi; i++ {
		versions = append(versions, i)
	}
	return versions, nil
}
