import Foundation

/// A regular expression compiled once when its definition is parsed.
final class CompiledPattern: @unchecked Sendable {
    // Safe to share: the expression is created in `init` and never mutated; Foundation documents
    // NSRegularExpression as immutable and safe to use from several threads at once.
    private let expression: NSRegularExpression

    init(_ pattern: String) throws {
        expression = try NSRegularExpression(pattern: pattern)
    }

    /// Whether the pattern matches anywhere in `text`.
    func matches(_ text: String) -> Bool {
        expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}
