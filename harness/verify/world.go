package verify

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/tfbench/tfbench/harness/model"
)

// worldMax is the largest World id and randomNumber (TFB rules, dataset:
// both in 1..10000).
const worldMax = 10000

// maxBadRows is how many bad rows of a list are reported before stopping,
// as TFB does ("stop after 5 bad ones").
const maxBadRows = 5

// checkDB applies the db body rule (TFB rules, db): one World object, as
// checkWorldObject checks it; an array holding it is a warn, anything else
// not an object a fail.
func checkDB(r *Result, body []byte) {
	if scanWorldObject(body) {
		return
	}
	v, err := decodeJSON(body)
	if err != nil {
		r.add(model.Fail, "invalid JSON: %v (TFB rules, db)", err)
		return
	}
	if list, isList := v.([]any); isList {
		if len(list) == 0 {
			r.add(model.Fail, "body is an empty array, want one World object (TFB rules, db)")
			return
		}
		r.add(model.Warn, "body is an array of %d, want one World object (TFB rules, db: an array is a warn)", len(list))
		v = list[0]
	}
	checkWorldObject(r, model.DB, v, "", model.Fail)
}

// checkWorldList applies the queries and updates body rule (TFB rules,
// queries): an array of want World objects (≤ 0: 1..500), each as in
// checkWorldObject, problems capped at most and stopping after maxBadRows.
func checkWorldList(r *Result, t model.TestType, body []byte, want int, most model.Verdict) {
	if n, ok := scanWorldArray(body); ok && countOK(n, want) {
		return
	}
	v, err := decodeJSON(body)
	if err != nil {
		r.addCapped(model.Fail, most, "invalid JSON: %v (TFB rules, %s)", err, t)
		return
	}
	list, isList := v.([]any)
	if !isList {
		r.addCapped(model.Fail, most, "body is %s, want an array of World objects (TFB rules, %s)", jsonKind(v), t)
		if _, isObj := v.(map[string]any); isObj {
			checkWorldObject(r, t, v, "", most)
		}
		return
	}
	if !countOK(len(list), want) {
		r.addCapped(model.Fail, most, "%d rows, %s", len(list), wantRows(t, want))
	}
	bad := 0
	for i, el := range list {
		if bad == maxBadRows {
			break
		}
		var one Result
		checkWorldObject(&one, t, el, "row "+strconv.Itoa(i+1)+": ", most)
		if len(one.Reasons) > 0 {
			bad++
			r.merge(one, "")
		}
	}
}

// countOK reports whether a list of n rows meets want (want <= 0: 1..500).
func countOK(n, want int) bool {
	if want <= 0 {
		return n >= minRows && n <= maxRows
	}
	return n == want
}

// wantRows words the row count rule for a reason.
func wantRows(t model.TestType, want int) string {
	if want <= 0 {
		return "want 1..500 (TFB rules, " + string(t) + ": clamp to 1..500)"
	}
	return "want " + strconv.Itoa(want) + " (TFB rules, " + string(t) + ": N rows, N clamped to 1..500, missing, empty or non-numeric means 1)"
}

// checkWorldObject checks one World object (TFB rules, db): integers "id"
// and "randomNumber" in 1..10000. A missing key or a non-number fails (capped
// at most); another key case, a string, a fraction, a value out of range or
// an extra key warns.
func checkWorldObject(r *Result, t model.TestType, v any, where string, most model.Verdict) {
	obj, ok := v.(map[string]any)
	if !ok {
		r.addCapped(model.Fail, most, "%s%s is %s, want a World object {\"id\":N,\"randomNumber\":M} (TFB rules, %s)", where, short(v), jsonKind(v), t)
		return
	}
	var found []string
	for _, want := range [...]string{"id", "randomNumber"} {
		key, ok := findKey(obj, want)
		if !ok {
			r.addCapped(model.Fail, most, "%sno key %q in %s (TFB rules, %s)", where, want, short(obj), t)
			continue
		}
		found = append(found, key)
		if key != want {
			r.add(model.Warn, "%skey %q, want %q (TFB accepts any case; tfbench is stricter)", where, key, want)
		}
		checkWorldValue(r, t, want, obj[key], where, most)
	}
	if extra := extraKeys(obj, found...); len(extra) > 0 {
		r.add(model.Warn, "%sextra keys %s in the World object (TFB rules, %s: extra keys are a warn)", where, strings.Join(extra, ", "), t)
	}
}

// checkWorldValue checks one field value of a World object.
func checkWorldValue(r *Result, t model.TestType, name string, v any, where string, most model.Verdict) {
	var f float64
	switch x := v.(type) {
	case json.Number:
		if n, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			f = float64(n)
			break
		}
		f, _ = strconv.ParseFloat(string(x), 64)
		r.add(model.Warn, "%s%q is %s, not an integer (TFB truncates it; tfbench is stricter)", where, name, x)
	case string:
		n, err := strconv.Atoi(strings.TrimSpace(x))
		if err != nil {
			r.addCapped(model.Fail, most, "%s%q is the string %q, not a number (TFB rules, %s)", where, name, x, t)
			return
		}
		f = float64(n)
		r.add(model.Warn, "%s%q is the JSON string %q, want a number (TFB rules, %s: a number as a string is a warn)", where, name, x, t)
	default:
		r.addCapped(model.Fail, most, "%s%q is %s, not a number (TFB rules, %s)", where, name, jsonKind(v), t)
		return
	}
	if f < 1 || f > worldMax || math.IsNaN(f) {
		r.add(model.Warn, "%s%q is %v, outside 1..10000 (TFB rules, %s: out of range is a warn)", where, name, f, t)
	}
}
