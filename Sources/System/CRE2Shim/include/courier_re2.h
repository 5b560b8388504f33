#ifndef COURIER_RE2_H
#define COURIER_RE2_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A compiled RE2 pattern; opaque to C and Swift.
typedef struct courier_re2 courier_re2;

/// Compiles `pattern` (UTF-8, `length` bytes, no terminator needed) with RE2's default syntax.
/// On failure returns NULL and writes RE2's reason, NUL-terminated and truncated to
/// `error_capacity` bytes, into `error`.
courier_re2 *courier_re2_new(const char *pattern, size_t length, char *error, size_t error_capacity);

/// Frees a pattern from `courier_re2_new` (NULL is ignored).
void courier_re2_delete(courier_re2 *re);

/// 1 when the pattern matches anywhere in `text` (UTF-8, `length` bytes), 0 when it does not.
/// Safe to call from several threads at once on one pattern.
int courier_re2_partial_match(const courier_re2 *re, const char *text, size_t length);

#ifdef __cplusplus
}
#endif

#endif
