// Package openapi holds the fixture's OpenAPI definitions.
package openapi
