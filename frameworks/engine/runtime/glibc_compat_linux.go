//go:build linux && cgo

package runtime

/*
#include <features.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

// v8go's prebuilt V8 (deps/linux_amd64) was built against glibc 2.38+ and
// calls its C23 entry points. Below 2.38 (Debian 12 has 2.36), forward them
// to the classic functions: C23 differs only in accepting "0b" binary
// numbers, which V8 never parses. From 2.38 on, libc provides them.
#if defined(__GLIBC__) && !__GLIBC_PREREQ(2, 38)
long __isoc23_strtol(const char *s, char **e, int b) { return strtol(s, e, b); }
long long __isoc23_strtoll(const char *s, char **e, int b) { return strtoll(s, e, b); }
unsigned long __isoc23_strtoul(const char *s, char **e, int b) { return strtoul(s, e, b); }
unsigned long long __isoc23_strtoull(const char *s, char **e, int b) { return strtoull(s, e, b); }
int __isoc23_sscanf(const char *s, const char *f, ...) { va_list ap; va_start(ap, f); int n = vsscanf(s, f, ap); va_end(ap); return n; }
int __isoc23_fscanf(FILE *fp, const char *f, ...) { va_list ap; va_start(ap, f); int n = vfscanf(fp, f, ap); va_end(ap); return n; }
#endif
*/
import "C"
