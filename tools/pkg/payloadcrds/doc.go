// Package payloadcrds copies the generated CRD manifests that ship in the
// release payload into one flat directory (payload-manifests/crds/ by
// default), selected by the glob lists of .gatedcrd.yaml.
//
// The copy is written through a tree.Tree: the directory ends up holding
// exactly the selected files, so --verify reports a differing or missing
// copy, and a file that no glob selects any more as untracked.
//
// Every generated CRD file must be either included or explicitly excluded:
// a new CRD that no glob selects would otherwise silently never reach the
// payload. Globs that match nothing are errors too, since they usually mean
// a renamed file that the payload now lacks.
package payloadcrds
