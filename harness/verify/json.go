package verify

import (
	"bytes"
	"sort"
	"strings"

	"github.com/tfbench/tfbench/harness/model"
)

// helloBody is the canonical json test body.
var helloBody = []byte(`{"message":"Hello, World!"}`)

const helloMessage = "Hello, World!"

// checkHello applies the json body rule (TFB rules, json): the object
// {"message":"Hello, World!"}, else fail; extra keys, or the key or value in
// another case (TFB ignores case), warn.
func checkHello(r *Result, body []byte) {
	if bytes.Equal(body, helloBody) {
		return
	}
	v, err := decodeJSON(body)
	if err != nil {
		r.add(model.Fail, "invalid JSON: %v (TFB rules, json)", err)
		return
	}
	obj, ok := v.(map[string]any)
	if !ok {
		r.add(model.Fail, "body is %s, want the object {\"message\":\"Hello, World!\"} (TFB rules, json)", jsonKind(v))
		return
	}
	key, found := findKey(obj, "message")
	if !found {
		r.add(model.Fail, "no key \"message\" in %s (TFB rules, json)", short(obj))
		return
	}
	if key != "message" {
		r.add(model.Warn, "key %q, want \"message\" (TFB accepts any case; tfbench is stricter)", key)
	}
	msg, isString := obj[key].(string)
	switch {
	case !isString:
		r.add(model.Fail, "\"message\" is %s, want the string %q (TFB rules, json)", jsonKind(obj[key]), helloMessage)
	case msg == helloMessage:
	case strings.EqualFold(msg, helloMessage):
		r.add(model.Warn, "message %q, want %q (TFB accepts any case; tfbench is stricter)", msg, helloMessage)
	default:
		r.add(model.Fail, "message %q, want %q (TFB rules, json)", msg, helloMessage)
	}
	if extra := extraKeys(obj, key); len(extra) > 0 {
		r.add(model.Warn, "extra keys %s beside \"message\" (TFB rules, json: extra keys are a warn)", strings.Join(extra, ", "))
	}
}

// findKey returns the key of obj equal to want, or else one equal to it
// case-insensitively (TFB lowercases keys), and whether one was found.
func findKey(obj map[string]any, want string) (string, bool) {
	if _, ok := obj[want]; ok {
		return want, true
	}
	for k := range obj {
		if strings.EqualFold(k, want) {
			return k, true
		}
	}
	return "", false
}

// extraKeys lists, quoted and sorted, the keys of obj not in known.
func extraKeys(obj map[string]any, known ...string) []string {
	var extra []string
outer:
	for k := range obj {
		for _, kn := range known {
			if k == kn {
				continue outer
			}
		}
		extra = append(extra, `"`+k+`"`)
	}
	sort.Strings(extra)
	return extra
}
