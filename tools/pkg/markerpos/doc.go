// Package markerpos finds the comment line a marker value came from.
//
// controller-tools' Collector parses markers into values but keeps no
// position for them. A Node says where a field's or type's markers may come
// from (its doc comments and the closest comment block above them, the
// Collector's rule); Locate returns the line of the index-th occurrence of
// a marker name there. Stage 2 uses it to report a bad marker, the CRD
// validation to point at the marker behind a rule the API server rejects.
package markerpos
