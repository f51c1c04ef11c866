// Package enumvalues computes the values of a +enum type (KEP-2887): the
// constant values of every typed constant of that type declared in a set of
// type-checked packages.
//
// Values come from go/types, not from the syntax: a constant written as
// another constant (Blue = Colour(DefaultColour)), as a concatenation, or
// declared in another package than its type counts with the value the
// compiler gives it. Values are de-duplicated and sorted, so the schema does
// not change when constants move between files or packages.
//
// This differs on purpose from controller-tools' +k8s:enum, which reads only
// string literals of the type's own package.
package enumvalues
