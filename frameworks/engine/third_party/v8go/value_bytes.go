// Added by the tfbench engine (PATCH.md): not part of upstream v8go.

package v8go

// #include "value_bytes.h"
import "C"
import "unsafe"

// AppendBytes appends the text of String() to dst, written by V8 straight
// into Go memory (one copy, no C allocation) and returns the extended
// slice. oneByte reports that every character is in U+0000..U+00FF and was
// written as that one byte (Latin-1); otherwise the text is UTF-8, as
// String() returns it. When dst's spare capacity is too small, the value
// is measured, dst grown to fit and the text written by a second call.
func (v *Value) AppendBytes(dst []byte) (_ []byte, oneByte bool) {
	for {
		spare := dst[len(dst):cap(dst)]
		var buf *C.char
		if len(spare) > 0 {
			buf = (*C.char)(unsafe.Pointer(&spare[0]))
		}
		r := C.ValueWriteBytes(v.ptr, buf, C.size_t(len(spare)))
		n := int(r.length)
		if r.written != 0 {
			return dst[:len(dst)+n], r.one_byte != 0
		}
		// A string's length cannot change; a value converted by its
		// toString may, so the loop measures again.
		grown := make([]byte, len(dst), len(dst)+n)
		copy(grown, dst)
		dst = grown
	}
}
