import CourierCore
import CourierHTTPClient

/// The plaintext every envelope carries, before encryption: a versioned JSON object
/// `{"v": 1, "kind": …, …}`. Unknown kinds of a known version are kept as `.unknown` so an older
/// client skips what a newer one sends; an unknown version is refused.
public enum MessageContent: Sendable, Hashable {
    /// A conversation message: text and an optional attachment pointer (encoded, opaque here).
    case text(body: String, attachment: [UInt8]?, sentAt: Int64, group: String?)
    /// "Everything up to `upToSeq` in `conversation` was delivered to / read by me."
    case receipt(ReceiptKind, conversation: String, upToSeq: Int64)
    /// Typing started or stopped in `conversation`; ephemeral, never stored.
    case typing(started: Bool, conversation: String)
    /// A group's membership after a change, sent to every member (and the removed ones).
    case groupUpdate(group: String, mode: GroupMode, members: [String])
    /// A sender key distribution message for `group` (sent over the pairwise sessions).
    case senderKey(group: String, distribution: [UInt8])
    /// A kind this version does not know.
    case unknown(kind: String)

    /// The format version written and understood.
    public static let version: Int64 = 1

    /// Everything but a text: receipts, typing, group updates, sender keys, unknown kinds.
    var isControl: Bool {
        if case .text = self { return false }
        return true
    }

    /// The JSON bytes.
    public var encoded: [UInt8] {
        var object: [String: JSONValue] = ["v": .int(Self.version)]
        switch self {
        case .text(let body, let attachment, let sentAt, let group):
            object["kind"] = "text"
            object["body"] = .string(body)
            object["sentAt"] = .int(sentAt)
            if let attachment { object["attachment"] = .string(Base64.encode(attachment)) }
            if let group { object["group"] = .string(group) }
        case .receipt(let kind, let conversation, let upToSeq):
            object["kind"] = "receipt"
            object["receipt"] = .string(kind.rawValue)
            object["conversation"] = .string(conversation)
            object["upToSeq"] = .int(upToSeq)
        case .typing(let started, let conversation):
            object["kind"] = "typing"
            object["started"] = .bool(started)
            object["conversation"] = .string(conversation)
        case .groupUpdate(let group, let mode, let members):
            object["kind"] = "group"
            object["group"] = .string(group)
            object["mode"] = .string(mode.rawValue)
            object["members"] = .array(members.map(JSONValue.string))
        case .senderKey(let group, let distribution):
            object["kind"] = "senderKey"
            object["group"] = .string(group)
            object["distribution"] = .string(Base64.encode(distribution))
        case .unknown(let kind):
            object["kind"] = .string(kind)
        }
        return JSONWriter.encode(.object(object))
    }

    /// Parses decrypted bytes.
    /// - Throws: `MessengerClientError(.malformedEnvelope)` for bad JSON, an unknown version or a
    ///   missing field.
    public init(decoding bytes: [UInt8]) throws {
        guard let json = try? JSONParser.parse(bytes), json["v"]?.intValue == Self.version,
            let kind = json["kind"]?.stringValue
        else { throw MessengerClientError(.malformedEnvelope, "content is not version \(Self.version) JSON") }
        func field<T>(_ value: T?) throws -> T {
            guard let value else { throw MessengerClientError(.malformedEnvelope, "\(kind) content lacks a field") }
            return value
        }
        switch kind {
        case "text":
            var attachment: [UInt8]?
            if let text = json["attachment"]?.stringValue { attachment = try field(Base64.decode(text)) }
            self = .text(
                body: try field(json["body"]?.stringValue), attachment: attachment,
                sentAt: json["sentAt"]?.intValue ?? 0, group: json["group"]?.stringValue)
        case "receipt":
            self = .receipt(
                try field(json["receipt"]?.stringValue.flatMap(ReceiptKind.init(rawValue:))),
                conversation: try field(json["conversation"]?.stringValue),
                upToSeq: try field(json["upToSeq"]?.intValue))
        case "typing":
            self = .typing(
                started: try field(json["started"]?.boolValue),
                conversation: try field(json["conversation"]?.stringValue))
        case "group":
            self = .groupUpdate(
                group: try field(json["group"]?.stringValue),
                mode: try field(json["mode"]?.stringValue.flatMap(GroupMode.init(rawValue:))),
                members: try field(json["members"]?.arrayValue).compactMap(\.stringValue))
        case "senderKey":
            self = .senderKey(
                group: try field(json["group"]?.stringValue),
                distribution: try field(json["distribution"]?.stringValue.flatMap(Base64.decode)))
        default:
            self = .unknown(kind: kind)
        }
    }
}

/// How a group's messages are encrypted.
public enum GroupMode: String, Sendable, Hashable {
    /// One pairwise envelope per member device: right for small groups.
    case pairwise
    /// One sender-key encryption per message, its key distributed over the pairwise sessions.
    case senderKeys
}
