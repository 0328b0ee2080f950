// Added by the tfbench engine (PATCH.md): not part of upstream v8go.

package v8go

// #include "host_function.h"
import "C"
import (
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
)

// HostCall is one call of a host function made by NewHostFunctionTemplate:
// its arguments as text and a way to set its result. It and the text it
// returns are valid only until the callback returns.
type HostCall struct {
	info unsafe.Pointer // the C++ FunctionCallbackInfo of the call
	text *C.char        // the arguments' bytes
	args []C.HostArg
}

// HostCallback is the Go side of a host function. Its result is undefined
// unless it calls ReturnUTF8 or ReturnNumber; it must not call into the
// isolate.
type HostCallback func(call *HostCall)

// Len is the number of arguments the function was called with.
func (c *HostCall) Len() int { return len(c.args) }

// Arg is argument i as String(argument) makes it, written by V8 once:
// one byte per character (Latin-1) when oneByte, else UTF-8. present is
// false for undefined, null and an index past the arguments (text nil).
// text is C memory reused by the next call: copy it to keep it.
func (c *HostCall) Arg(i int) (text []byte, oneByte, present bool) {
	if i >= len(c.args) || c.args[i].present == 0 {
		return nil, false, false
	}
	a := &c.args[i]
	if a.length == 0 {
		return nil, true, true
	}
	p := unsafe.Add(unsafe.Pointer(c.text), a.offset)
	return unsafe.Slice((*byte)(p), int(a.length)), a.one_byte != 0, true
}

// ReturnUTF8 makes the UTF-8 text b the call's result (one copy, into a
// new V8 string) and reports true; a string over V8's length limit leaves
// the result undefined and reports false.
func (c *HostCall) ReturnUTF8(b []byte) bool {
	var p *C.char
	if len(b) > 0 {
		p = (*C.char)(unsafe.Pointer(&b[0]))
	}
	return C.HostReturnString(c.info, p, C.size_t(len(b))) != 0
}

// ReturnNumber makes n the call's result.
func (c *HostCall) ReturnNumber(n float64) {
	C.HostReturnNumber(c.info, C.double(n))
}

// hostCallbacks holds every HostCallback by its ref; an isolate's are
// removed when its Isolate is garbage collected.
var (
	hostCallbacks sync.Map // int32 → HostCallback
	hostSeq       atomic.Int32
)

// NewHostFunctionTemplate makes a function template that calls cb with
// the call's arguments as text (no Value per argument or result, and no
// Locker of its own: the call runs under the caller's). Unlike
// NewFunctionTemplateWithError, a host function cannot throw.
func NewHostFunctionTemplate(iso *Isolate, cb HostCallback) *FunctionTemplate {
	if iso == nil || cb == nil {
		panic("v8go: NewHostFunctionTemplate: nil Isolate or HostCallback")
	}
	ref := hostSeq.Add(1)
	hostCallbacks.Store(ref, cb)
	runtime.AddCleanup(iso, func(ref int32) { hostCallbacks.Delete(ref) }, ref)
	tmpl := &template{ptr: C.NewHostFunctionTemplate(iso.ptr, C.int(ref)), iso: iso}
	runtime.SetFinalizer(tmpl, (*template).finalizer)
	return &FunctionTemplate{tmpl}
}

//export goHostCallback
func goHostCallback(ref C.int, info unsafe.Pointer, text *C.char, args *C.HostArg, argc C.int) {
	cb, ok := hostCallbacks.Load(int32(ref))
	if !ok {
		return
	}
	call := HostCall{info: info, text: text, args: unsafe.Slice(args, int(argc))}
	cb.(HostCallback)(&call)
}
