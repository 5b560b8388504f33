import CourierHTTP
import Foundation

/// An edit's `If-Match` (RFC 9110 13.1.1), checked inside the edit against the environment's
/// version as the admin listing tags it (`ETag: "12"`).
enum EditPrecondition: Equatable {
    /// No `If-Match`: the edit applies to whatever is stored.
    case none
    /// `If-Match: *`: the flag or segment must exist.
    case exists
    /// The entity tags listed. The comparison is strong and by text: a weak tag (`W/"12"`) never
    /// matches, and neither does `"012"`.
    case tags([String])

    /// The request's precondition.
    /// - Throws: `HTTPError` (`invalid_request`) when `If-Match` is neither `*` nor a list of
    ///   entity tags.
    init(_ request: HTTPRequest) throws(HTTPError) {
        guard let value = request.header("if-match") else {
            self = .none
            return
        }
        let members = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            !$0.isEmpty
        }
        if members == ["*"] {
            self = .exists
            return
        }
        guard !members.isEmpty, members.allSatisfy(Self.isEntityTag) else {
            throw HTTPError(
                .invalidRequest,
                "If-Match must be * or entity tags, such as the environment's version from GET …/definitions (\"12\")")
        }
        self = .tags(members)
    }

    /// The entity tag of an environment at `version` (`"12"`): the admin listing's and an edit's
    /// `ETag`, and what `If-Match` is compared with.
    static func tag(_ version: Int64) -> String { "\"\(version)\"" }

    /// `"…"` or `W/"…"`, with no quote inside.
    static func isEntityTag(_ text: String) -> Bool {
        let tag = text.hasPrefix("W/") ? text.dropFirst(2) : Substring(text)
        return tag.count >= 2 && tag.first == "\"" && tag.last == "\"" && !tag.dropFirst().dropLast().contains("\"")
    }

    /// Refuses the edit (412 `environment_changed`) when the precondition does not hold for the
    /// environment as stored: an edit made from an older read would write over the changes since.
    func check(_ stored: StoredEnvironment, environment: String, subject: FlagChange.Subject, key: String)
        throws(HTTPError)
    {
        switch self {
        case .none:
            return
        case .exists:
            let items = subject == .flag ? stored.flags : stored.segments
            guard items.contains(where: { $0["key"]?.stringValue == key }) else {
                throw HTTPError(
                    .environmentChanged,
                    "there is no \(subject.rawValue) \(key) in environment \(environment) (If-Match: *)")
            }
        case .tags(let tags):
            guard !tags.contains(Self.tag(stored.version)) else { return }
            throw HTTPError(
                .environmentChanged,
                "environment \(environment) is at version \(stored.version), not \(tags.joined(separator: " or ")): "
                    + "it changed since it was read; read it again")
        }
    }
}
