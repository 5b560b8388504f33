internal import CLibWebSockets

/// Reads a request's method, path, query and headers out of lws's parsed header table.
///
/// lws keeps the headers it knows (about 90 names, with Debian's `LWS_WITH_HTTP_UNCOMMON_HEADERS`)
/// in indexed slots and a repeated header as several fragments; 4.1 has no way to list the names
/// it does not know, so only the unknown names in `customNames` and the configuration's
/// `extraHeaderNames` are looked up (docs/http-engine.md).
enum LibWebSocketsHeaders {
    private static let methods: [(lws_token_indexes, String)] = [
        (WSI_TOKEN_GET_URI, "GET"), (WSI_TOKEN_POST_URI, "POST"), (WSI_TOKEN_PUT_URI, "PUT"),
        (WSI_TOKEN_PATCH_URI, "PATCH"), (WSI_TOKEN_DELETE_URI, "DELETE"), (WSI_TOKEN_HEAD_URI, "HEAD"),
        (WSI_TOKEN_OPTIONS_URI, "OPTIONS"), (WSI_TOKEN_CONNECT, "CONNECT"),
    ]

    /// Headers lws 4.1 has no slot for that Courier or its clients use; any other unknown header
    /// is not seen.
    static let customNames = [
        "access-control-request-method", "access-control-request-private-network", "idempotency-key",
        "x-request-id", "x-correlation-id", "x-api-key", "x-write-key", "x-forwarded-proto", "x-forwarded-host",
        "forwarded", "traceparent", "tracestate", "x-requested-with", "sec-fetch-site", "sec-fetch-mode",
    ]

    /// The header slots with a real header name (`content-length:`), not a method, a pseudo
    /// header or a client-side slot, and their names in lowercase without the colon.
    private static let names: [(lws_token_indexes, String)] = headerSlots()

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

    static func method(_ wsi: OpaquePointer) -> (token: lws_token_indexes, name: String)? {
        methods.first { lws_hdr_total_length(wsi, $0.0) > 0 }.map { ($0.0, $0.1) }
    }

    /// The whole of a slot (the path, for a method's slot).
    static func copy(_ wsi: OpaquePointer, _ token: lws_token_indexes) -> String? {
        let length = Int(lws_hdr_total_length(wsi, token))
        guard length > 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: length + 1)
        let n = lws_hdr_copy(wsi, &buffer, Int32(buffer.count), token)
        guard n >= 0 else { return nil }
        return string(buffer, count: Int(n))
    }

    /// The query string. lws has already percent-decoded it (and `+` to space) and split it at
    /// `&` and `;` into fragments, so each name and value is encoded again: `HTTPRequest.query`
    /// then decodes exactly what the client meant, even a `%26` or `%25` inside a value.
    static func query(_ wsi: OpaquePointer) -> String {
        fragments(wsi, WSI_TOKEN_HTTP_URI_ARGS).map { pair in
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

    /// Every known header present, names lowercased, a repeated one joined with `, `.
    static func all(_ wsi: OpaquePointer, extraNames: [String] = []) -> [String: String] {
        var headers: [String: String] = [:]
        for (token, name) in names where lws_hdr_total_length(wsi, token) > 0 {
            headers[name] = fragments(wsi, token).joined(separator: ", ")
        }
        for name in customNames + extraNames where headers[name] == nil {
            let key = name + ":"
            let length = Int(lws_hdr_custom_length(wsi, key, Int32(key.utf8.count)))
            guard length >= 0 else { continue }
            var buffer = [CChar](repeating: 0, count: length + 1)
            let n = lws_hdr_custom_copy(wsi, &buffer, Int32(buffer.count), key, Int32(key.utf8.count))
            if n >= 0 { headers[name] = string(buffer, count: Int(n)) }
        }
        return headers
    }

    private static func fragments(_ wsi: OpaquePointer, _ token: lws_token_indexes) -> [String] {
        var result: [String] = []
        var index: Int32 = 0
        while true {
            let length = Int(lws_hdr_fragment_length(wsi, token, index))
            if length <= 0 && (index > 0 || lws_hdr_total_length(wsi, token) == 0) { break }
            var buffer = [CChar](repeating: 0, count: length + 1)
            let n = lws_hdr_copy_fragment(wsi, &buffer, Int32(buffer.count), token, index)
            if n < 0 { break }
            result.append(string(buffer, count: Int(n)))
            index += 1
        }
        return result
    }

    private static func string(_ buffer: [CChar], count: Int) -> String {
        String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension String {
    fileprivate func leftPadded() -> String { count < 2 ? "0" + self : self }
}
