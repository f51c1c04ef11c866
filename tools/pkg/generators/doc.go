// Package generators holds codegen's generators of Go files, each a
// generator.Generator: compatibility, deepcopy, modelname, swaggerdocs and
// openapi, with their flags (the reference's --<name>:… families) and
// their .codegen.yaml sections. A group's section, when present, sets
// every option of the generator for that group, as with the reference: an
// option it leaves out has its default, not the command line's value.
package generators
