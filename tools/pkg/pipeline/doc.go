// Package pipeline runs gatedcrd's CRD generation from Go: the one API the
// codegen command, the benchmarks, the test loaders and any operator
// repository call. Its types show the flow; each step is a method of the
// previous step's typed result and returns its own, so the steps can only
// run in order:
//
//	Run.Discover          → *Discovered   API groups, versions, .gatedcrd.yaml
//	Discovered.Load       → *Loaded       compatibility lines (compatlevel) as an in-memory
//	                                      overlay, then one go/packages load (goload.Universe)
//	Loaded.CheckMarkers   → *Checked      strict mode over every marker line
//	Checked.PartialManifests → *Partials  stage 1: partial manifests per gate entry
//	Partials.Schemas      → *Schemas      stage 2: a schema per kind and gate set
//	Schemas.Merge         → *Merged       stage 3: merged variants per version × profile × feature set
//	Merged.Validate       → *Validated    checks of the merged output: required annotations,
//	                                      then the API server's own validation (crdvalidate)
//	Validated.GateDocs    → *Documented   per-gate lifecycle pages (featureGateDocs)
//	Documented.Changes    → *Changes      the files to write (Changes.Write) or to verify (Changes.Stale)
//
// Run.Generate runs them all. Each result embeds the previous one, so a
// later step (or a caller) reaches everything known so far: the discovery
// result, the universe, each stage's result. A step that finds bad input
// returns an error wrapping ErrInput; the problems themselves, with file,
// line and marker, are in Run.Problems, and nothing has been written.
//
// # What the steps share
//
// A Run holds what every step shares, so that nothing is read from disk
// or loaded twice in one process: the diag.List all problems go to, the tree.Tree
// overlay every stage reads through and writes into (stage 2 sees stage 1's
// files, stage 3 stage 2's, none of them on disk before Changes.Write), the
// payload FeatureGate directory (read once by Run.Payload, for strict
// mode's gate names and for the merge, in the one model of
// features/payload), and Stats. The Go packages are loaded once; their
// marker lines are associated with types and fields once, through
// goload.Universe.MarkerLines (package markerpos), and every stage and
// strict mode locate markers there. Positions stay token.Pos values or
// absolute file names inside the stages and are rendered relative to the
// base directory in one place, Run.Relative.
//
// The stages hand their manifests on typed: each of stage 1's partial
// manifests (partialschemas.Result.Manifests) carries its path, its bytes
// and its object exactly as manifest.Parse returns it for those bytes,
// and its gate set; stage 2 takes them (schemapatch.Input.Partials) and
// hands the manifests it processed to the merge the same way
// (schemapatch.Result.Files → manifestmerge.Input.Files). Nothing one stage
// produced is read or parsed again; each step drops the previous step's
// copies once it took them over. The tree still receives every file.
//
// The on-disk files between the stages remain the contract of the
// separate sub-commands (codegen empty-partial-schemas, schemapatch,
// crd-manifest-merge select Options.Stages): with nothing handed over, a
// stage reads every input through the tree with the same reader
// (manifest.Reader), and a run of all three in one process produces the
// same bytes.
//
// # Adding a step
//
// A check or transformation of the merged manifests plugs in after Merge,
// next to Validate (as the required annotations and the CRD validation
// do): it takes *Merged (whose Tree holds every merged file, whose
// Universe, when loaded, holds the Go types) and reports to Run.Problems.
// Positions of Go sources a schema came from are found through the same
// universe: goload.Universe.Package finds a package, its syntax gives the
// type and field declarations, and Universe.MarkerLines(pkg) gives, per
// declaration node, each marker line with its token.Pos (render it with
// Universe.Fset). A generated schema path names the kind and the JSON
// field names on the way down, which lead to those declarations.
//
// Strict mode's findings carry diag.Diagnostic.Strict: unless the run is
// strict (Options.StrictMarkers, else the repository's choice) they are
// warnings; Options.AcceptStrict (a baseline) may accept
// them; the run settles them whenever a step checks for errors.
package pipeline
