package verify

import "github.com/tfbench/tfbench/harness/model"

// checkPlaintext applies the plaintext body rule (TFB rules, plaintext):
// the body contains "Hello, World!" in any ASCII case, else fail; any byte
// beyond those 13 is a warn.
func checkPlaintext(r *Result, body []byte) {
	if !containsFold(body, helloMessage) {
		r.add(model.Fail, "body %q does not contain %q (TFB rules, plaintext: compared case-insensitively)", cut(body, 40), helloMessage)
		return
	}
	if extra := len(body) - len(helloMessage); extra > 0 {
		r.add(model.Warn, "%d extra byte(s) beside %q (TFB rules, plaintext: extra bytes are a warn)", extra, helloMessage)
	}
}

// containsFold reports whether s contains the ASCII string sub, ASCII
// letters compared case-insensitively. It does not allocate.
func containsFold(s []byte, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		j := 0
		for j < len(sub) && lowerASCII(s[i+j]) == lowerASCII(sub[j]) {
			j++
		}
		if j == len(sub) {
			return true
		}
	}
	return false
}

// lowerASCII lowercases an ASCII letter and leaves other bytes alone.
func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// cut returns at most n bytes of b as a string, "..." marking a cut.
func cut(b []byte, n int) string {
	if len(b) <= n {
		return string(b)
	}
	return string(b[:n-3]) + "..."
}
