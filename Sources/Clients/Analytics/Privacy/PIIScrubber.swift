import CourierCore

/// Removes personal data before anything is stored: keeps only allow-listed property keys, and
/// replaces e-mail addresses and phone numbers inside string values, ids, names and context.
package struct PIIScrubber: Sendable {
    /// Keys kept at the top level of `properties`/`traits`; `nil` keeps all.
    package var allowList: Set<String>?
    /// Whether string values are scanned for e-mail addresses and phone numbers.
    package var redacts: Bool

    static let emailMarker = "[email]"
    static let phoneMarker = "[phone]"

    package init(allowList: Set<String>?, redacts: Bool) {
        self.allowList = allowList
        self.redacts = redacts
    }

    /// Scrubs every field of `event` that can carry personal data: properties (allow-list and
    /// redaction), the event name, every id, and `context` when `context` is true. Ids seen
    /// lately are taken from `identifiers` (a scrubber's `redacts` must not change between the
    /// calls that share one).
    package func scrub(_ event: inout AnalyticsEvent, context: Bool, identifiers: inout RedactedIdentifiers) {
        event.properties = scrub(event.properties)
        guard redacts else { return }
        event.name = event.name.map(redact)
        event.userId = event.userId.map { identifiers.redacted($0, by: self) }
        event.anonymousId = identifiers.redacted(event.anonymousId, by: self)
        event.groupId = event.groupId.map { identifiers.redacted($0, by: self) }
        event.previousId = event.previousId.map { identifiers.redacted($0, by: self) }
        if context, event.context.values.contains(where: Self.mayContainPII) {
            event.context = event.context.mapValues(redact)
        }
    }

    /// An id with e-mail addresses and phone numbers replaced, except that an id made only of
    /// digits is a database key, not a phone number, and is kept: turning every numeric user id
    /// into `[phone]` would merge all those users into one.
    package func redactIdentifier(_ id: String) -> String {
        let digits = id.utf8.drop { $0 == UInt8(ascii: "-") }
        if !digits.isEmpty, digits.allSatisfy({ $0 >= 48 && $0 <= 57 }) { return id }
        return redact(id)
    }

    /// `text` with e-mail addresses and phone numbers replaced (unchanged when redaction is off).
    package func redact(_ text: String) -> String { redacts ? Self.redact(text) : text }

    package func scrub(_ properties: [String: JSONValue]) -> [String: JSONValue] {
        // Fast path: nothing to filter and nothing that looks like personal data.
        if allowList == nil && (!redacts || !properties.values.contains(where: Self.mayContainPII)) {
            return properties
        }
        var result: [String: JSONValue] = [:]
        for (key, value) in properties where allowList?.contains(key) ?? true {
            result[key] = redacts ? redact(value) : value
        }
        return result
    }

    package func redact(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let s): return .string(Self.redact(s))
        case .array(let a): return .array(a.map(redact))
        case .object(let o): return .object(o.mapValues(redact))
        default: return value
        }
    }

    /// Whether a value holds a string that could contain an e-mail address or a phone number.
    static func mayContainPII(_ value: JSONValue) -> Bool {
        switch value {
        case .string(let s): return mayContainPII(s)
        case .array(let a): return a.contains(where: mayContainPII)
        case .object(let o): return o.values.contains(where: mayContainPII)
        default: return false
        }
    }

    private static func mayContainPII(_ text: String) -> Bool {
        var digits = 0
        for b in text.utf8 {
            if b == UInt8(ascii: "@") { return true }
            if b >= 48 && b <= 57 { digits += 1 }
        }
        return digits >= 7
    }

    /// Replaces e-mail addresses and phone numbers in `text`.
    package static func redact(_ text: String) -> String {
        guard mayContainPII(text) else { return text }
        let bytes = Array(text.utf8)
        let at = bytes.contains(UInt8(ascii: "@"))
        let digits = bytes.reduce(0) { $0 + ($1 >= 48 && $1 <= 57 ? 1 : 0) }
        // Most such strings hold nothing to replace (a UUID has a dozen digits): then the text
        // is returned as it is, with no copy made.
        let emailsRedacted = at ? redactEmails(bytes) : nil
        let phonesRedacted = digits >= 7 ? redactPhones(emailsRedacted ?? bytes) : nil
        guard let out = phonesRedacted ?? emailsRedacted else { return text }
        return String(decoding: out, as: UTF8.self)
    }

    private static func isEmailLocal(_ b: UInt8) -> Bool {
        (b >= 48 && b <= 57) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122)
            || ".!#$%&'*+/=?^_`{|}~-".utf8.contains(b)
    }

    private static func isDomain(_ b: UInt8) -> Bool {
        (b >= 48 && b <= 57) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b == UInt8(ascii: "-")
            || b == UInt8(ascii: ".")
    }

    /// `local@domain.tld` with a non-empty local part and a dot inside the domain; `nil` when
    /// `bytes` hold none.
    private static func redactEmails(_ bytes: [UInt8]) -> [UInt8]? {
        var out: [UInt8] = []
        var i = 0
        var copiedUpTo = 0
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "@") else { i += 1; continue }
            var start = i
            while start > copiedUpTo, isEmailLocal(bytes[start - 1]) { start -= 1 }
            var end = i + 1
            while end < bytes.count, isDomain(bytes[end]) { end += 1 }
            while end > i + 1, bytes[end - 1] == UInt8(ascii: ".") || bytes[end - 1] == UInt8(ascii: "-") { end -= 1 }
            let domain = bytes[(i + 1)..<end]
            if start < i, let dot = domain.lastIndex(of: UInt8(ascii: ".")), dot > i + 1, dot < end - 1 {
                out.append(contentsOf: bytes[copiedUpTo..<start])
                out.append(contentsOf: emailMarker.utf8)
                copiedUpTo = end
                i = end
            } else {
                i += 1
            }
        }
        guard copiedUpTo > 0 else { return nil }
        out.append(contentsOf: bytes[copiedUpTo...])
        return out
    }

    /// A run of 7 to 15 digits, optionally led by `+`, with spaces, dots, dashes or parentheses
    /// between them (E.164 allows at most 15 digits); `nil` when `bytes` hold none.
    private static func redactPhones(_ bytes: [UInt8]) -> [UInt8]? {
        func isSeparator(_ b: UInt8) -> Bool {
            b == 32 || b == UInt8(ascii: "-") || b == UInt8(ascii: ".") || b == UInt8(ascii: "(")
                || b == UInt8(ascii: ")")
        }
        func isDigit(_ b: UInt8) -> Bool { b >= 48 && b <= 57 }
        func isWord(_ b: UInt8) -> Bool { isDigit(b) || (b >= 65 && b <= 122) }
        func isJoiner(_ b: UInt8) -> Bool { b == UInt8(ascii: "-") || b == UInt8(ascii: ".") }
        var out: [UInt8] = []
        // Bytes before this were copied into `out` (the rest of a run is copied at a match).
        var copiedUpTo = 0
        var i = 0
        while i < bytes.count {
            let startsRun =
                isDigit(bytes[i]) || (bytes[i] == UInt8(ascii: "+") && i + 1 < bytes.count && isDigit(bytes[i + 1]))
                || (bytes[i] == UInt8(ascii: "(") && i + 1 < bytes.count && isDigit(bytes[i + 1]))
            let afterWord = i > 0 && isWord(bytes[i - 1])
            // Digits hyphenated or dotted onto a word belong to a token such as a UUID or a SKU
            // (`3f2c8a1e-77aa-4123-8123-…`, `SKU-5551234-XL`), not to a phone number.
            let joinedBefore = i > 1 && isJoiner(bytes[i - 1]) && isWord(bytes[i - 2])
            guard startsRun, !afterWord, !joinedBefore else { i += 1; continue }
            var end = i
            var digits = 0
            var lastDigitEnd = i
            while end < bytes.count {
                let b = bytes[end]
                if isDigit(b) {
                    digits += 1
                    lastDigitEnd = end + 1
                } else if !(isSeparator(b) || (end == i && b == UInt8(ascii: "+"))) {
                    break
                }
                end += 1
            }
            let followedByWord = lastDigitEnd < bytes.count && isWord(bytes[lastDigitEnd])
            let joinedAfter =
                lastDigitEnd + 1 < bytes.count && isJoiner(bytes[lastDigitEnd]) && isWord(bytes[lastDigitEnd + 1])
            if digits >= 7, digits <= 15, !followedByWord, !joinedAfter {
                out.append(contentsOf: bytes[copiedUpTo..<i])
                out.append(contentsOf: phoneMarker.utf8)
                copiedUpTo = lastDigitEnd
                i = lastDigitEnd
            } else {
                i = max(lastDigitEnd, i + 1)
            }
        }
        guard copiedUpTo > 0 else { return nil }
        out.append(contentsOf: bytes[copiedUpTo...])
        return out
    }
}
