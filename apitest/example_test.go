package apitest

import (
	"os"
	"testing"

	"github.com/gatedcrd/gatedcrd/apitest/server"
	"github.com/gatedcrd/gatedcrd/apitest/suite"
)

func TestMain(m *testing.M) { os.Exit(server.RunTests(m)) }

// TestExampleSuites runs every suite of the example API group against every
// generated CRD file it matches, in a real API server.
func TestExampleSuites(t *testing.T) {
	suite.Run(t, suite.Options{
		BaseDir:    "../example",
		PayloadDir: "../payload-manifests/featuregates",
	})
}
