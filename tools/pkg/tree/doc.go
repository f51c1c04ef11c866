// Package tree is the file system as the pipeline sees it: the files on disk
// with the run's pending changes layered on top.
//
// Stages never touch the disk directly. They read through a Tree, which
// returns what an earlier stage of the same run wrote (or the disk content
// when nothing was written), and they write into the Tree, which only
// records the new bytes. At the end of a run the caller either commits the
// Tree, writing every changed file through a temporary file and a rename so
// that no output is ever half-written, or verifies it, listing every file
// whose content would change without writing anything.
//
// This is what lets `crd-manifests` run the three stages in one process with
// the same result as three separate invocations, and what makes `--verify`
// incapable of writing.
package tree
