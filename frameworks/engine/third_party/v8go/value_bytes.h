// Added by the tfbench engine (PATCH.md): not part of upstream v8go.

#ifndef V8GO_VALUE_BYTES_H
#define V8GO_VALUE_BYTES_H

#include <stddef.h>

#include "value.h"

#ifdef __cplusplus
extern "C" {
#endif

// ValueBytes is the result of ValueWriteBytes: the length of the value's
// text in bytes, whether it is one byte per character (Latin-1) rather
// than UTF-8, and whether it was written (length <= capacity).
typedef struct {
  size_t length;
  int one_byte;
  int written;
} ValueBytes;

// ValueWriteBytes writes String(value) into buf when it fits in capacity
// bytes: a string whose characters are all one byte (U+0000..U+00FF) as
// those bytes, any other as UTF-8 (orphan surrogates replaced, as
// String::Utf8Value does). A failed conversion to a string is "".
ValueBytes ValueWriteBytes(ValuePtr ptr, char* buf, size_t capacity);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif
