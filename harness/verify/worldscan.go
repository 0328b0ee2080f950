package verify

// World rows in their canonical form take a fast path that neither decodes
// into maps nor allocates: under load nearly every response is canonical,
// and anything else falls back to the decoding checks, which explain.

// scanWorldObject reports whether body is exactly one canonical World object
// {"id":N,"randomNumber":M}: both keys once (either order), integer values
// in 1..10000 without sign or leading zero, JSON whitespace allowed.
func scanWorldObject(body []byte) bool {
	s := worldScanner{b: body}
	return s.object() && s.end()
}

// scanWorldArray returns the number of canonical World objects in body if
// body is a JSON array of nothing else, and ok.
func scanWorldArray(body []byte) (rows int, ok bool) {
	s := worldScanner{b: body}
	if !s.lit('[') {
		return 0, false
	}
	if s.lit(']') {
		return 0, s.end()
	}
	for {
		if !s.object() {
			return 0, false
		}
		rows++
		if s.lit(']') {
			if !s.end() {
				return 0, false
			}
			return rows, true
		}
		if !s.lit(',') {
			return 0, false
		}
	}
}

// scanWorldRows reports whether body is, in canonical form, one World
// object (single) or an array of rows of them (rows ≤ 0: 1..500), each with
// its randomNumber equal to world's for its id (world nil: any in
// 1..10000). False means "not sure", never "wrong": the caller's slow path
// decides and explains.
func scanWorldRows(body []byte, world World, single bool, rows int) bool {
	s := worldScanner{b: body}
	if single {
		id, rn, ok := s.pair()
		return ok && inWorld(world, id, rn) && s.end()
	}
	if !s.lit('[') {
		return false
	}
	n := 0
	for {
		id, rn, ok := s.pair()
		if !ok || !inWorld(world, id, rn) {
			return false
		}
		n++
		if s.lit(']') {
			return s.end() && countOK(n, rows)
		}
		if !s.lit(',') {
			return false
		}
	}
}

// inWorld reports whether row id holds randomNumber rn in world (nil: any).
func inWorld(world World, id, rn int) bool {
	return world == nil || id <= len(world) && world[id-1] == int64(rn)
}

// worldScanner is a cursor over a JSON body.
type worldScanner struct {
	b []byte
	i int
}

// space skips JSON whitespace.
func (s *worldScanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// lit consumes the byte c after optional whitespace.
func (s *worldScanner) lit(c byte) bool {
	s.space()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// end reports whether only whitespace is left.
func (s *worldScanner) end() bool {
	s.space()
	return s.i == len(s.b)
}

// object consumes one canonical World object.
func (s *worldScanner) object() bool {
	_, _, ok := s.pair()
	return ok
}

// pair consumes one canonical World object and returns its id and
// randomNumber.
func (s *worldScanner) pair() (id, randomNumber int, ok bool) {
	if !s.lit('{') {
		return 0, 0, false
	}
	var seenID, seenRN bool
	for k := 0; k < 2; k++ {
		if k == 1 && !s.lit(',') {
			return 0, 0, false
		}
		var dst *int
		switch s.key() {
		case "id":
			if seenID {
				return 0, 0, false
			}
			seenID, dst = true, &id
		case "randomNumber":
			if seenRN {
				return 0, 0, false
			}
			seenRN, dst = true, &randomNumber
		default:
			return 0, 0, false
		}
		if !s.lit(':') {
			return 0, 0, false
		}
		if *dst, ok = s.number(); !ok {
			return 0, 0, false
		}
	}
	return id, randomNumber, s.lit('}')
}

// key consumes a quoted key without escapes and returns it, or "" if the
// next token is not such a key. The returned string is one of two constants,
// so no allocation happens.
func (s *worldScanner) key() string {
	s.space()
	for _, k := range [...]string{"id", "randomNumber"} {
		end := s.i + len(k) + 2
		if end <= len(s.b) && s.b[s.i] == '"' && s.b[end-1] == '"' && string(s.b[s.i+1:end-1]) == k {
			s.i = end
			return k
		}
	}
	return ""
}

// number consumes an integer in 1..10000 without sign or leading zero and
// returns it.
func (s *worldScanner) number() (int, bool) {
	s.space()
	n, digits := 0, 0
	for s.i < len(s.b) && '0' <= s.b[s.i] && s.b[s.i] <= '9' {
		if digits == 0 && s.b[s.i] == '0' || digits == 5 {
			return 0, false
		}
		n = n*10 + int(s.b[s.i]-'0')
		digits++
		s.i++
	}
	if s.i < len(s.b) && (s.b[s.i] == '.' || s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		return 0, false
	}
	return n, digits > 0 && n <= worldMax
}
