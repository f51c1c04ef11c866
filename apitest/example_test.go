package apitest

import (
	"fmt"
	"os"
	"testing"

	"github.com/gatedcrd/gatedcrd/apitest/server"
	"github.com/gatedcrd/gatedcrd/apitest/suite"
)

func TestMain(m *testing.M) {
	code := m.Run()
	if err := server.StopShared(); err != nil {
		fmt.Fprintf(os.Stderr, "stopping the shared API server: %v\n", err)
		if code == 0 {
			code = 1
		}
	}
	os.Exit(code)
}

// TestExampleSuites runs every suite of the example API group against every
// generated CRD file it matches, in a real API server.
func TestExampleSuites(t *testing.T) {
	suite.Run(t, suite.Options{
		BaseDir:    "../example",
		PayloadDir: "../payload-manifests/featuregates",
	})
}
