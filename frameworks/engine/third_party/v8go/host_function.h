// Added by the tfbench engine (PATCH.md): not part of upstream v8go.

#ifndef V8GO_HOST_FUNCTION_H
#define V8GO_HOST_FUNCTION_H

#include <stddef.h>

#include "isolate.h"
#include "template.h"

#ifdef __cplusplus
extern "C" {
#endif

// HostArg is one argument of a host function call as text: its bytes at
// offset in the call's buffer, one byte per character (Latin-1) when
// one_byte, else UTF-8; present is 0 for undefined and null (no text).
typedef struct {
  size_t offset;
  size_t length;
  int one_byte;
  int present;
} HostArg;

// NewHostFunctionTemplate makes a function template whose calls go to the
// Go host callback ref (host_function.go) with their arguments as text.
TemplatePtr NewHostFunctionTemplate(IsolatePtr iso, int ref);

// HostReturnString and HostReturnNumber set the result of the call under
// way (info is the callback's FunctionCallbackInfo): the string from n
// bytes of UTF-8 at s (0 when V8 cannot make it: over its length limit),
// or the number.
int HostReturnString(void* info, const char* s, size_t n);
void HostReturnNumber(void* info, double n);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif
