import Foundation
import CourierCore
import FlagRules

/// One activated set of definitions: what every evaluation reads until the next activation, so
/// values never change mid-screen.
public struct FlagSnapshot: Sendable {
    /// Where the definitions came from.
    public enum Source: Sendable, Equatable {
        /// Fetched from the server in this session.
        case network
        /// Read from the last-known-good copy on disk.
        case cache
    }

    /// The definitions.
    public let document: FlagDocument
    /// The server's `ETag` for them.
    public let etag: String?
    /// When they were last confirmed by the server (fetched or answered 304).
    public let fetchedAt: Date
    /// Network or disk.
    public let source: Source

    /// The definitions' version on the server.
    public var version: Int64 { document.version }

    /// Resolves one flag: kill switch → targeting rules → remote value; `nil` value is the
    /// app's default.
    /// - Parameters:
    ///   - extraKills: flags killed by a fetch not yet activated (kills apply at once).
    ///   - stale: whether the definitions are past the staleness limit (asked only when no rule
    ///     decides).
    @inline(__always)
    func resolve(
        key: String, type: FlagType, context: EvaluationContext, extraKills: Set<String>, stale: () -> Bool
    ) -> Resolution {
        guard let flag = document.flags[key] else {
            return Resolution(
                value: nil, reason: .error, errorCode: .flagNotFound, errorMessage: "no definition for \(key)")
        }
        if !extraKills.isEmpty, extraKills.contains(key) { return Resolution(value: nil, reason: .disabled) }
        guard flag.type == type || (type == .json) else {
            return Resolution(
                value: nil, reason: .error, errorCode: .typeMismatch,
                errorMessage: "\(key) is defined as \(flag.type.rawValue), declared as \(type.rawValue)")
        }
        return RuleEvaluator.evaluate(
            flag, context: context, fallbackReason: stale() ? .stale : (source == .cache ? .cached : .static))
    }
}
