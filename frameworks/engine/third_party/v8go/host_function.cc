// Added by the tfbench engine (PATCH.md): not part of upstream v8go.

#include "host_function.h"

#include <string>
#include <vector>

#include "_cgo_export.h"
#include "deps/include/v8-context.h"
#include "deps/include/v8-function.h"
#include "deps/include/v8-isolate.h"
#include "deps/include/v8-locker.h"
#include "deps/include/v8-primitive.h"
#include "deps/include/v8-template.h"
#include "deps/include/v8-exception.h"

using namespace v8;

// The arguments' text of the calls on this thread: a host callback never
// calls back into JavaScript, so one call's text is in use at a time.
thread_local std::string host_text;
thread_local std::vector<HostArg> host_args;

static void HostFunctionCallback(const FunctionCallbackInfo<Value>& info) {
  Isolate* iso = info.GetIsolate();
  HandleScope handle_scope(iso);
  Local<Context> ctx = iso->GetCurrentContext();
  int ref = info.Data().As<Integer>()->Value();
  int argc = info.Length();
  TryCatch try_catch(iso);
  host_text.clear();
  host_args.resize(argc);
  for (int i = 0; i < argc; i++) {
    HostArg& a = host_args[i];
    a = HostArg{host_text.size(), 0, 0, 0};
    Local<Value> v = info[i];
    if (v->IsNullOrUndefined()) {
      continue;
    }
    a.present = 1;
    Local<String> s;
    if (!v->ToString(ctx).ToLocal(&s)) {
      // As String::Utf8Value (Value.String): a failed conversion (a Symbol)
      // is "", and the exception is dropped; a termination goes on.
      if (!try_catch.CanContinue()) {
        return;
      }
      try_catch.Reset();
      continue;
    }
    if (s->IsOneByte() || s->ContainsOnlyOneByte()) {
      a.one_byte = 1;
      a.length = s->Length();
      host_text.resize(a.offset + a.length);
      s->WriteOneByteV2(iso, 0, a.length,
                        reinterpret_cast<uint8_t*>(host_text.data() + a.offset));
    } else {
      a.length = s->Utf8LengthV2(iso);
      host_text.resize(a.offset + a.length);
      s->WriteUtf8V2(iso, host_text.data() + a.offset, a.length,
                     String::WriteFlags::kReplaceInvalidUtf8);
    }
  }
  goHostCallback(ref,
                 static_cast<void*>(const_cast<FunctionCallbackInfo<Value>*>(&info)),
                 host_text.data(), host_args.data(), argc);
}

TemplatePtr NewHostFunctionTemplate(IsolatePtr iso, int ref) {
  Locker locker(iso);
  Isolate::Scope isolate_scope(iso);
  HandleScope handle_scope(iso);
  m_template* ot = new m_template;
  ot->iso = iso;
  ot->ptr.Reset(iso, FunctionTemplate::New(iso, HostFunctionCallback,
                                           Integer::New(iso, ref)));
  return ot;
}

int HostReturnString(void* info, const char* s, size_t n) {
  auto* i = static_cast<FunctionCallbackInfo<Value>*>(info);
  if (n == 0) {
    i->GetReturnValue().SetEmptyString();
    return 1;
  }
  Local<String> str;
  if (n > static_cast<size_t>(String::kMaxLength) * 3 ||
      !String::NewFromUtf8(i->GetIsolate(), s, NewStringType::kNormal,
                           static_cast<int>(n))
           .ToLocal(&str)) {
    return 0;  // over V8's length limit: the result stays undefined
  }
  i->GetReturnValue().Set(str);
  return 1;
}

void HostReturnNumber(void* info, double n) {
  static_cast<FunctionCallbackInfo<Value>*>(info)->GetReturnValue().Set(n);
}
