#include "courier_re2.h"

#include <cstring>
#include <new>
#include <string>

#include <re2/re2.h>

// RE2 runs in time linear in the input (no backtracking): what flag rules need, since any
// client's attribute is matched against an admin's pattern on the server.
struct courier_re2 {
    re2::RE2 regex;
    explicit courier_re2(re2::StringPiece pattern, const re2::RE2::Options &options) : regex(pattern, options) {}
};

static void courier_re2_copy_error(const std::string &text, char *error, size_t capacity) {
    if (error == nullptr || capacity == 0) return;
    size_t length = text.size() < capacity - 1 ? text.size() : capacity - 1;
    std::memcpy(error, text.data(), length);
    error[length] = '\0';
}

extern "C" courier_re2 *courier_re2_new(const char *pattern, size_t length, char *error, size_t error_capacity) {
    // No C++ exception may cross into Swift: an allocation failure becomes a refusal.
    try {
        re2::RE2::Options options;
        options.set_log_errors(false);
        auto *re = new courier_re2(re2::StringPiece(pattern, length), options);
        if (!re->regex.ok()) {
            courier_re2_copy_error(re->regex.error(), error, error_capacity);
            delete re;
            return nullptr;
        }
        return re;
    } catch (...) {
        courier_re2_copy_error("out of memory compiling the pattern", error, error_capacity);
        return nullptr;
    }
}

extern "C" void courier_re2_delete(courier_re2 *re) { delete re; }

extern "C" int courier_re2_partial_match(const courier_re2 *re, const char *text, size_t length) {
    try {
        return re2::RE2::PartialMatch(re2::StringPiece(text, length), re->regex) ? 1 : 0;
    } catch (...) {
        return 0;
    }
}
