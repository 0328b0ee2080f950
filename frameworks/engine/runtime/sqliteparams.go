package runtime

import (
	"encoding/json"
	"fmt"
)

// parseParams decodes a JSON array of positional params; "" means none.
// Arrays of integers, what every TFB route sends ("[4174]"), are scanned
// by scanInts; anything else goes through encoding/json. The result is
// valid until the next call.
func (d *db) parseParams(sql, js string) ([]any, error) {
	if js == "" {
		return nil, nil
	}
	if ps, next, ok := scanInts(js, 0, d.params[:0]); ok && next == len(js) {
		d.params = ps
		return ps, nil
	}
	var params []any
	if err := json.Unmarshal([]byte(js), &params); err != nil {
		return nil, fmt.Errorf("sqlite %q: params %.60q: want a JSON array: %w", sql, js, err)
	}
	return params, nil
}

// parseParamsList decodes a JSON array of params arrays (batch, tx), by
// scanInts when every inner array holds integers ("[[12],[7]]"), by
// encoding/json otherwise. The result is valid until the next call.
func (d *db) parseParamsList(sql, js string) ([][]any, error) {
	if lists, ok := d.scanIntLists(js); ok {
		return lists, nil
	}
	var list [][]any
	if err := json.Unmarshal([]byte(js), &list); err != nil {
		return nil, fmt.Errorf("sqlite %q: params list %.60q: want a JSON array of arrays: %w", sql, js, err)
	}
	return list, nil
}

// scanIntLists is parseParamsList's fast path: ok is false unless js is
// exactly a JSON array of scanInts arrays.
func (d *db) scanIntLists(js string) (_ [][]any, ok bool) {
	if len(js) < 2 || js[0] != '[' {
		return nil, false
	}
	ps, lists, i := d.params[:0], d.lists[:0], 1
	starts := make([]int, 0, 32)
	if js[i] != ']' {
		for {
			starts = append(starts, len(ps))
			if ps, i, ok = scanInts(js, i, ps); !ok || i >= len(js) {
				return nil, false
			}
			if js[i] == ']' {
				break
			}
			if js[i] != ',' {
				return nil, false
			}
			i++
		}
	}
	if i != len(js)-1 {
		return nil, false
	}
	for k, start := range starts { // slice ps only now: appends may have moved it
		end := len(ps)
		if k+1 < len(starts) {
			end = starts[k+1]
		}
		lists = append(lists, ps[start:end:end])
	}
	d.params, d.lists = ps, lists
	return lists, true
}

// scanInts scans the JSON array of integers at js[i:] ("[4174]", "[]",
// "[1,-2]"; no whitespace, as JSON.stringify writes them), appends its
// values to ps as int64 and returns the index after its "]". ok is false
// for any other text, including integers of more than 15 digits (beyond
// 2^53, where a JS number is no longer exact): the caller then falls back
// to encoding/json, which also reports malformed input.
func scanInts(js string, i int, ps []any) (_ []any, next int, ok bool) {
	if i >= len(js) || js[i] != '[' {
		return ps, i, false
	}
	i++
	if i < len(js) && js[i] == ']' {
		return ps, i + 1, true
	}
	for {
		neg := i < len(js) && js[i] == '-'
		if neg {
			i++
		}
		start := i
		var v int64
		for i < len(js) && js[i] >= '0' && js[i] <= '9' {
			v = v*10 + int64(js[i]-'0')
			i++
		}
		if n := i - start; n == 0 || n > 15 || (n > 1 && js[start] == '0') || i >= len(js) {
			return ps, i, false
		}
		if neg {
			v = -v
		}
		ps = append(ps, v)
		switch js[i] {
		case ',':
			i++
		case ']':
			return ps, i + 1, true
		default:
			return ps, i, false
		}
	}
}
