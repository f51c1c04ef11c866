// Package baseline lets a large existing tree adopt strict mode before every
// old finding is fixed.
//
// A baseline file (.codegen-baseline.yaml at --base-dir) lists the
// strict-mode findings a team has accepted, each by the file it is in and
// the marker or key text it is about, with how many times it occurs there.
// Line numbers are deliberately not part of an entry, so editing a file
// around an accepted finding does not invalidate the baseline. A strict run
// accepts each finding the baseline lists (up to its count), fails on every
// other one, and reports the entries that matched nothing as stale, so the
// file shrinks as findings are fixed. `codegen strict-baseline` writes it.
package baseline
