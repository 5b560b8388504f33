internal import CLibWebSockets

/// Reads a request's method, path, query and headers out of lws's parsed header table.
///
/// lws keeps the headers it knows (about 90 names, with Debian's `LWS_WITH_HTTP_UNCOMMON_HEADERS`)
/// in indexed slots and a repeated header as several fragments; 4.1 has no way to list the names
/// it does not know, so only the unknown names in `customNames` and the configuration's
/// `extraHeaderNames` are looked up (docs/http-engine.md).
enum LibWebSocketsHeaders {
    /// The slots lws keeps a request line's path in, by method (made once: a method made from
    /// its name upper-cases it).
    private static let methods: [(lws_token_indexes, HTTPMethod)] = [
        (WSI_TOKEN_GET_URI, .get), (WSI_TOKEN_POST_URI, .post), (WSI_TOKEN_PUT_URI, .put),
        (WSI_TOKEN_PATCH_URI, .patch), (WSI_TOKEN_DELETE_URI, .delete), (WSI_TOKEN_HEAD_URI, .head),
        (WSI_TOKEN_OPTIONS_URI, .options), (WSI_TOKEN_CONNECT, HTTPMethod(rawValue: "CONNECT")),
    ]

    /// Headers lws 4.1 has no slot for that Courier or its clients use; any other unknown header
    /// is not seen.
    static let customNames = [
        "access-control-request-method", "access-control-request-private-network", "idempotency-key",
        "x-request-id", "x-correlation-id", "x-api-key", "x-write-key", "x-forwarded-proto", "x-forwarded-host",
        "forwarded", "traceparent", "tracestate", "x-requested-with", "sec-fetch-site", "sec-fetch-mode",
        "x-csrf-token", "last-event-id",
    ]

    /// The header slots with a real header name (`content-length:`), not a method, a pseudo
    /// header or a client-side slot, and their names in lowercase without the colon.
    private static let names: [(lws_token_indexes, String)] = headerSlots()

    /// The slots of `names`, apart: the scan of every slot for each request reads these and
    /// touches a name (a reference count) only for a header that is there.
    private static let slotTokens: [lws_token_indexes] = names.map(\.0)

    private static func headerSlots() -> [(lws_token_indexes, String)] {
        var slots: [(lws_token_indexes, String)] = []
        for index in 0..<WSI_TOKEN_COUNT.rawValue {
            let token = lws_token_indexes(rawValue: index)
            guard let text = lws_token_to_string(token) else { continue }
            let name = String(cString: text)
            guard name.hasSuffix(":"), !name.hasPrefix(":"), name.count > 1 else { continue }
            slots.append((token, String(name.dropLast()).lowercased()))
        }
        return slots
    }

    static func method(_ wsi: OpaquePointer) -> (token: lws_token_indexes, method: HTTPMethod)? {
        methods.first { lws_hdr_total_length(wsi, $0.0) > 0 }.map { ($0.0, $0.1) }
    }

    /// The whole of a slot (the path, for a method's slot).
    static func copy(_ wsi: OpaquePointer, _ token: lws_token_indexes) -> String? {
        let length = Int(lws_hdr_total_length(wsi, token))
        guard length > 0 else { return nil }
        return copy(wsi, token, length: length)
    }

    /// The query string. lws has already percent-decoded it (and `+` to space) and split it at
    /// `&` and `;` into fragments, so each name and value is encoded again: `HTTPRequest.query`
    /// then decodes exactly what the client meant, even a `%26` or `%25` inside a value.
    static func query(_ wsi: OpaquePointer) -> String {
        guard lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_URI_ARGS) > 0 else { return "" }
        return fragments(wsi, WSI_TOKEN_HTTP_URI_ARGS).map { pair in
            guard let equals = pair.firstIndex(of: "=") else { return percentEncode(pair) }
            return percentEncode(String(pair[..<equals])) + "="
                + percentEncode(String(pair[pair.index(after: equals)...]))
        }.joined(separator: "&")
    }

    private static func percentEncode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            let unreserved =
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
            if unreserved {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded()
            }
        }
        return out
    }

    /// Where lws keeps a header: in its slot, or among the names it does not know (looked up by
    /// its key: lowercase, with its colon, NUL-terminated).
    enum Lookup {
        case slot(lws_token_indexes)
        case custom([CChar])
    }

    /// The lookup of every name in `names` and `customNames`, by name.
    private static let lookupByName: [String: Lookup] = {
        var lookups = Dictionary(names.map { ($0.1, Lookup.slot($0.0)) }, uniquingKeysWith: { first, _ in first })
        for (name, key) in customKeys where lookups[name] == nil { lookups[name] = .custom(key) }
        return lookups
    }()

    /// The lookups of the headers the server reads on every request, found once (each has one:
    /// a name lws has no slot for is among `customKeys`).
    private static let knownLookups: [Lookup] = KnownHeader.allCases.map {
        lookupByName[$0.name] ?? .custom(customKey($0.name).key)
    }

    /// The header `name` (lowercase), as `all` would have it, read alone: a name lws has no slot
    /// for is looked up when it is one of `customNames` or `extraNames`.
    static func value(_ wsi: OpaquePointer, _ name: String, extraNames: [String]) -> String? {
        if let lookup = lookupByName[name] { return value(wsi, lookup) }
        guard extraNames.contains(name) else { return nil }
        return value(wsi, .custom(customKey(name).key))
    }

    /// One of the headers the server reads on every request, without hashing its name.
    static func value(_ wsi: OpaquePointer, _ known: KnownHeader) -> String? {
        value(wsi, knownLookups[known.rawValue])
    }

    private static func value(_ wsi: OpaquePointer, _ lookup: Lookup) -> String? {
        switch lookup {
        case .slot(let token):
            let total = Int(lws_hdr_total_length(wsi, token))
            return total > 0 ? slot(wsi, token, total: total) : nil
        case .custom(let key):
            return custom(key, in: wsi)
        }
    }

    /// A slot holding `total` bytes: one line (nearly always) copied straight into its string, a
    /// repeated header's lines joined with `, ` (`; ` for `Cookie`, RFC 6265), each without the
    /// blanks around it (lws begins each line after the first with a space of its own, before the
    /// line's own).
    private static func slot(_ wsi: OpaquePointer, _ token: lws_token_indexes, total: Int) -> String? {
        if lws_hdr_fragment_length(wsi, token, 1) <= 0 { return copy(wsi, token, length: total) }
        return fragments(wsi, token).map { $0.trimmingBlanks() }
            .joined(separator: token == WSI_TOKEN_HTTP_COOKIE ? "; " : ", ")
    }

    /// Every known header present, names lowercased, a repeated one joined with `, `.
    static func all(_ wsi: OpaquePointer, extraNames: [String] = []) -> [String: String] {
        var headers: [String: String] = [:]
        slotTokens.withUnsafeBufferPointer { tokens in
            for index in tokens.indices {
                let token = tokens[index]
                let total = Int(lws_hdr_total_length(wsi, token))
                guard total > 0 else { continue }
                if let value = slot(wsi, token, total: total) { headers[names[index].1] = value }
            }
        }
        lookUp(customKeys, in: wsi, into: &headers)
        if !extraNames.isEmpty { lookUp(extraNames.map(Self.customKey), in: wsi, into: &headers) }
        return headers
    }

    /// A custom header's name as lws looks it up: lowercase, with its colon, NUL-terminated.
    private static func customKey(_ name: String) -> (name: String, key: [CChar]) {
        (name, Array((name + ":").utf8CString))
    }

    /// The names asked for by name: `customNames`, and any header the server reads on every
    /// request that this lws has no slot for (so `all` and `value` agree on every name).
    private static let customKeys: [(name: String, key: [CChar])] = {
        let slotted = Set(names.map(\.1))
        var asked = customNames
        for known in KnownHeader.allCases where !slotted.contains(known.name) && !asked.contains(known.name) {
            asked.append(known.name)
        }
        return asked.map(customKey)
    }()

    /// The value of the custom header whose lws key (`name:`, NUL-terminated) is `key`.
    private static func custom(_ key: [CChar], in wsi: OpaquePointer) -> String? {
        key.withUnsafeBufferPointer { key -> String? in
            let keyLength = Int32(key.count - 1)
            let length = Int(lws_hdr_custom_length(wsi, key.baseAddress, keyLength))
            guard length >= 0 else { return nil }
            return withUnsafeTemporaryAllocation(of: CChar.self, capacity: length + 1) { buffer -> String? in
                let n = lws_hdr_custom_copy(wsi, buffer.baseAddress, Int32(buffer.count), key.baseAddress, keyLength)
                return n >= 0 ? string(UnsafeBufferPointer(rebasing: buffer[..<Int(n)])) : nil
            }
        }
    }

    private static func lookUp(
        _ keys: [(name: String, key: [CChar])], in wsi: OpaquePointer, into headers: inout [String: String]
    ) {
        for index in keys.indices {
            // Asking lws first: most requests carry none of these, and then no name is hashed
            // (nor any element of `keys` copied).
            let length = keys[index].key.withUnsafeBufferPointer { key in
                Int(lws_hdr_custom_length(wsi, key.baseAddress, Int32(key.count - 1)))
            }
            guard length >= 0 else { continue }
            let name = keys[index].name
            guard headers[name] == nil, let value = custom(keys[index].key, in: wsi) else { continue }
            headers[name] = value
        }
    }

    /// The whole of a slot whose total length is `length`.
    private static func copy(_ wsi: OpaquePointer, _ token: lws_token_indexes, length: Int) -> String? {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: length + 1) { buffer in
            let n = lws_hdr_copy(wsi, buffer.baseAddress, Int32(buffer.count), token)
            return n >= 0 ? string(UnsafeBufferPointer(rebasing: buffer[..<Int(n)])) : nil
        }
    }

    private static func fragments(_ wsi: OpaquePointer, _ token: lws_token_indexes) -> [String] {
        var result: [String] = []
        var index: Int32 = 0
        while true {
            let length = Int(lws_hdr_fragment_length(wsi, token, index))
            if length <= 0 && (index > 0 || lws_hdr_total_length(wsi, token) == 0) { break }
            let fragment = withUnsafeTemporaryAllocation(of: CChar.self, capacity: length + 1) { buffer -> String? in
                let n = lws_hdr_copy_fragment(wsi, buffer.baseAddress, Int32(buffer.count), token, index)
                return n >= 0 ? string(UnsafeBufferPointer(rebasing: buffer[..<Int(n)])) : nil
            }
            guard let fragment else { break }
            result.append(fragment)
            index += 1
        }
        return result
    }

    private static func string(_ buffer: UnsafeBufferPointer<CChar>) -> String {
        buffer.withMemoryRebound(to: UInt8.self) { String(decoding: $0, as: UTF8.self) }
    }
}

extension String {
    fileprivate func leftPadded() -> String { count < 2 ? "0" + self : self }

    /// Without the spaces and tabs around it (a header value's optional whitespace, RFC 9110 5.5).
    fileprivate func trimmingBlanks() -> String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
