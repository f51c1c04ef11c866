package payload

import (
	"bytes"
	"encoding/json"
)

// MarshalIndentedJSON serialises v the way payload manifests are written:
// encoding/json with four-space indentation (so map keys are sorted and
// <, > and & are escaped) and a trailing newline. Given the generic map
// parsed from a reference payload file it reproduces that file byte for byte.
func MarshalIndentedJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "    ")
	// Encoder.Encode appends the trailing newline the files end with.
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
