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
// Run.Generate runs them all. Each step's type holds its own result under
// its own name and embeds the previous step's, so a later step (or a
// caller) reaches everything known so far by name: Discovered.Discovery and
// Config, Loaded.Universe, Partials.PartialSchemas (stage 1),
// Schemas.SchemaPatch (stage 2), Merged.ManifestMerge (stage 3),
// Validated.CRDValidation. A step that finds bad input returns an error
// wrapping ErrInput; the problems themselves, with file, line and marker,
// are in Run.Problems, and nothing has been written. Options.OnDiscovered,
// OnLoaded and OnValidated let a caller look at a step's result as the run
// goes, also when a later check fails it.
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
// goload.Universe.MarkerLines (package markerpos), and every stage locates
// the markers it reports there; strict mode, which must see the marker
// lines no type or field owns too, reads every comment of the roots
// itself. Positions stay token.Pos values or absolute file names while a
// step works; the stages that quote their input files in messages render
// those relative to the base directory themselves, and Run.Relative renders
// every diagnostic's file (and absolute paths quoted by go list or the OS)
// relative for people.
//
// The stages hand their manifests on typed: each of stage 1's partial
// manifests (partialschemas.Result.Manifests) carries its path, its bytes
// and its object exactly as manifest.Parse returns it for those bytes,
// and its gate set; stage 2 takes them (schemapatch.Input.Partials) and
// hands the manifests it processed to the merge the same way
// (schemapatch.Result.Files → manifestmerge.Input.Files). Nothing one stage
// produced is read or parsed again. A step that takes files over keeps the
// only reference: stage 2 leaves stage 1 no copy of the partial manifests
// and drops each one once its replacement is written, the merge takes
// stage 2's manifests and hands them on to GateDocs, their last reader,
// which lets them go. The tree still receives every file.
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
// do): it takes *Merged (Run.Tree holds every merged file,
// Merged.ManifestMerge lists them, Universe holds the Go types when they
// were loaded) and reports to Run.Problems.
// The Go source a schema came from is found in one way, Loaded.Sources: a
// generated schema path names the kind and the JSON field names on the way
// down, and Sources.Locate follows them through the loaded types to the
// marker, field or type declaration behind the path (the empty path is the
// kind's type), Sources.LocateMarker to a given marker. The required
// annotations, the CRD validation and the gate pages all point there.
//
// Strict mode's findings carry diag.Diagnostic.Strict: unless the run is
// strict (Options.StrictMarkers, else the repository's choice) they are
// warnings; Options.AcceptStrict (a baseline) may accept
// them; the run settles them whenever a step checks for errors.
package pipeline
