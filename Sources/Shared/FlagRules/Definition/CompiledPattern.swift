internal import CRE2Shim

/// A regular expression compiled once when its definition is parsed, and matched by RE2 in time
/// linear in the input: a `regex` condition is an admin's pattern run against any client's
/// attribute on the server, so a backtracking engine would let one request tie up a thread for
/// seconds (`(a+)+$` against `aaa…!`).
///
/// RE2 has no backreferences, lookahead, lookbehind, atomic groups or possessive quantifiers
/// (none has a linear-time implementation): such patterns do not compile and the definition is
/// refused. Its `\d`, `\w`, `\s` and `\b` are ASCII only.
package final class CompiledPattern: @unchecked Sendable {
    // Safe to share: the RE2 object is created in `init`, freed in `deinit` and never mutated in
    // between; RE2 documents its const matching methods as safe from several threads at once.
    private let handle: OpaquePointer

    /// Compiles `pattern` with RE2's syntax.
    /// - Throws: `CompiledPattern.Refusal` with RE2's reason when RE2 cannot compile it.
    package init(_ pattern: String) throws(Refusal) {
        var pattern = pattern
        var reason = [CChar](repeating: 0, count: 256)
        let compiled = pattern.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { text in
                courier_re2_new(text.baseAddress, text.count, &reason, reason.count)
            }
        }
        guard let compiled else {
            let bytes = reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            throw Refusal(reason: String(decoding: bytes, as: UTF8.self))
        }
        handle = compiled
    }

    deinit { courier_re2_delete(handle) }

    /// Whether the pattern matches anywhere in `text`.
    package func matches(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { courier_re2_partial_match(handle, $0.baseAddress, $0.count) == 1 }
        }
    }

    /// Why RE2 refused a pattern.
    package struct Refusal: Error, CustomStringConvertible {
        /// RE2's own words: `invalid perl operator: (?<`, `invalid escape sequence: \1`, …
        package let reason: String
        package var description: String { reason }
    }
}
