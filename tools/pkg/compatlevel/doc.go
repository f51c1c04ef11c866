// Package compatlevel maintains the "Compatibility level N: ..." line in the
// Go doc comment of every API type that embeds TypeMeta.
//
// Each such type must carry +openshift:compatibility-gen:level=N (N in
// 1..4) or +openshift:compatibility-gen:internal, and the level must suit
// the maturity of its version directory: v<d> is GA (level 1, or 2 or 4 for
// configured historic exceptions), v<d>beta<d> level 2, v<d>alpha<d> level
// 4; internal types use level 4, and any other version name must be
// internal. The line then reads "Compatibility level N: <text>"; an
// existing one is replaced, otherwise it goes into the comment block next
// to the type, before the block's first marker line.
//
// The package works on source text, not on loaded packages: Run computes
// the new content of each Go file from its syntax alone, so that
// crd-manifests can hand the edited sources to its single package load as
// an overlay (descriptions then already carry the line) and write the Go
// files only when not verifying.
package compatlevel
