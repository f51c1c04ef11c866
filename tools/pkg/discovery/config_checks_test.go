package discovery

import (
	"reflect"
	"strings"
	"testing"
)

// TestParseCheckSections reads the crdify and schemacheck sections as
// openshift/api writes them, and rejects values of the wrong kind.
func TestParseCheckSections(t *testing.T) {
	cfg, err := ParseConfig("/repo/example/.codegen.yaml", []byte(`schemacheck:
  disabled: false
  enabledValidators: [NoBools]
  disabledValidators: []
crdify:
  config:
    unhandledEnforcement: Error
    validations:
    - name: enum
      enforcement: Warn
`))
	if err != nil {
		t.Fatal(err)
	}
	wantSC := SchemaCheckConfig{Present: true, EnabledValidators: []string{"NoBools"}, DisabledValidators: []string{}, Line: 1}
	if !reflect.DeepEqual(cfg.SchemaCheck, wantSC) {
		t.Errorf("schemacheck = %+v, want %+v", cfg.SchemaCheck, wantSC)
	}
	want := `{"unhandledEnforcement":"Error","validations":[{"enforcement":"Warn","name":"enum"}]}`
	if !cfg.Crdify.Present || cfg.Crdify.Disabled || string(cfg.Crdify.Config) != want || cfg.Crdify.ConfigLine != 7 {
		t.Errorf("crdify = %+v (config %s), want config %s from line 7", cfg.Crdify, cfg.Crdify.Config, want)
	}

	for _, tc := range []struct{ yaml, want string }{
		{"schemacheck:\n  enabledValidators: NoBools\n", "schemacheck.enabledValidators: must be a list of comparator names"},
		{"crdify:\n  config: [a]\n", "crdify.config: must be a mapping"},
		{"crdify:\n  disabled: maybe\n", "crdify.disabled: must be true or false"},
	} {
		_, err := ParseConfig("/repo/x/.codegen.yaml", []byte(tc.yaml))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.yaml, err, tc.want)
		}
	}
}
