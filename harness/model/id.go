// Package model is tfbench's vocabulary, one owner per shape: a variant's
// identity, test types, verdicts, the sample and its key, the shard, the
// peaks index and the row built from it (RowKey, Row) that every later stage reads.
package model

import (
	"fmt"
	"strings"
)

// ID names one framework variant; "framework/variant" in text
// (go-stdlib/default), built by String and read by ParseID only.
type ID struct {
	Framework string `json:"framework"`
	Variant   string `json:"variant"`
}

// String is "framework/variant".
func (id ID) String() string { return id.Framework + "/" + id.Variant }

// ParseID reads "framework/variant": both parts non-empty.
func ParseID(s string) (ID, error) {
	fw, v, ok := strings.Cut(s, "/")
	if !ok || fw == "" || v == "" {
		return ID{}, fmt.Errorf("%q is not framework/variant", s)
	}
	return ID{Framework: fw, Variant: v}, nil
}

// Reference is the variant every ratio is taken against and every
// shard measures (docs/design.md: go-stdlib is the reference).
var Reference = ID{Framework: "go-stdlib", Variant: "default"}

// CutSelector splits the CLI's NAME:VARIANT selector (NAME alone: ok is
// false); the colon is the selector's, the slash the recorded identity's.
func CutSelector(s string) (name, variant string, ok bool) { return strings.Cut(s, ":") }

// MustID is ParseID for fixed names (tables, tests); it panics on a
// malformed one.
func MustID(s string) ID {
	id, err := ParseID(s)
	if err != nil {
		panic(err)
	}
	return id
}
