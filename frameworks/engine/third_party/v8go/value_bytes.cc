// Added by the tfbench engine (PATCH.md): not part of upstream v8go.

#include "value_bytes.h"

#include "context.h"
#include "deps/include/v8-primitive.h"
#include "isolate-macros.h"
#include "value-macros.h"

using namespace v8;

ValueBytes ValueWriteBytes(ValuePtr ptr, char* buf, size_t capacity) {
  LOCAL_VALUE(ptr);
  ValueBytes rtn = {0, 0, 1};
  Local<String> str;
  // As String::Utf8Value: a failed conversion (an exception, caught by
  // LOCAL_VALUE's TryCatch) gives the empty string.
  if (!value->ToString(local_ctx).ToLocal(&str)) {
    return rtn;
  }
  // IsOneByte reads the representation only; ContainsOnlyOneByte scans a
  // two-byte string up to its first character above U+00FF.
  if (str->IsOneByte() || str->ContainsOnlyOneByte()) {
    rtn.one_byte = 1;
    rtn.length = str->Length();
    rtn.written = rtn.length <= capacity;
    if (rtn.written && rtn.length > 0) {
      str->WriteOneByteV2(iso, 0, str->Length(),
                          reinterpret_cast<uint8_t*>(buf));
    }
    return rtn;
  }
  rtn.length = str->Utf8LengthV2(iso);
  rtn.written = rtn.length <= capacity;
  if (rtn.written && rtn.length > 0) {
    str->WriteUtf8V2(iso, buf, rtn.length,
                     String::WriteFlags::kReplaceInvalidUtf8);
  }
  return rtn;
}
