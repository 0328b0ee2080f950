package verify

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// decodeJSON parses body as one JSON value, numbers kept as json.Number so
// that integers and non-integers can be told apart. Trailing non-space data
// is an error, as in TFB's json.loads.
func decodeJSON(body []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("extra data after the JSON value at byte %d", dec.InputOffset())
	}
	return v, nil
}

// jsonKind names the JSON type of a decoded value for reasons.
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// short renders v for a reason, cut to about 40 bytes.
func short(v any) string {
	s := fmt.Sprint(v)
	if b, err := json.Marshal(v); err == nil {
		s = string(b)
	}
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	return s
}
