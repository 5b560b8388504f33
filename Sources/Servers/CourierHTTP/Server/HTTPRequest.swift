import CourierCore

/// An HTTP request as a handler sees it: the body already read (and gunzipped when it came with
/// `Content-Encoding: gzip`), headers with lowercase names, the route's path parameters filled in.
public struct HTTPRequest: Sendable {
    /// `GET`, `POST`, …
    public let method: HTTPMethod
    /// The decoded path, without the query string.
    public let path: String
    /// The raw query string (without `?`), empty if none.
    public let queryString: String
    /// Header names in lowercase; a repeated header keeps its values joined with `, `.
    ///
    /// On the engine this copies every header into a dictionary the first time it is asked for;
    /// `header(_:)` reads one name without that copy.
    public var headers: [String: String] {
        switch headerStorage {
        case .dictionary(let headers): headers
        case .table(let table): table.all
        }
    }
    /// Where `headers` and `header(_:)` read from.
    let headerStorage: HeaderStorage
    /// The body bytes (empty on a route that streams its body: read `bodyStream` there).
    public let body: [UInt8]
    /// The client's address: the connection's peer, or, when that peer is one of
    /// `HTTPServerConfiguration.trustedProxies`, the right-most address in `X-Forwarded-For`
    /// that is not (per-client limits key on this).
    public internal(set) var remoteAddress: String
    /// The connection's peer, which is the proxy's address behind a proxy.
    public internal(set) var peerAddress: String
    /// Values of `{name}` segments of the route that matched.
    public internal(set) var pathParameters: [String: String] = [:]
    /// Where a streamed body's pieces arrive (routes with `body: .stream` on libwebsockets).
    var bodyFeed: RequestBodyFeed?
    /// What the engine found of the framing (`Content-Length`, `Transfer-Encoding`) when it read
    /// the head, so the server's guard need not read those headers again; `nil` when nothing
    /// checked it (a request made in process).
    var checkedFraming: FramingCheck?

    /// The outcome of the engine's framing check.
    struct FramingCheck: Sendable {
        /// Why the framing is ambiguous (`Responder.framingProblem`), or `nil`.
        let problem: String?
    }

    /// The body as chunks: as they arrive on a route with `body: .stream`, else `body` as one.
    public var bodyStream: HTTPRequestBodyStream {
        HTTPRequestBodyStream(source: bodyFeed.map { .feed($0) } ?? .whole(body))
    }

    /// Creates a request (the server builds these; tests may too); `remoteAddress` is the peer's.
    public init(
        method: HTTPMethod, path: String, queryString: String = "", headers: [String: String] = [:],
        body: [UInt8] = [], remoteAddress: String = "127.0.0.1"
    ) {
        self.init(
            method: method, path: path, queryString: queryString, headerStorage: .dictionary(headers), body: body,
            remoteAddress: remoteAddress)
    }

    /// A request the engine reads from lws's header table (`table`) while its callback runs.
    init(
        method: HTTPMethod, path: String, queryString: String, headerStorage: HeaderStorage, body: [UInt8],
        remoteAddress: String
    ) {
        self.method = method
        self.path = path
        self.queryString = queryString
        self.headerStorage = headerStorage
        self.body = body
        self.remoteAddress = remoteAddress
        peerAddress = remoteAddress
    }

    /// A copy with `body` in place of its body (the headers, client and path parameters kept).
    func replacingBody(with body: [UInt8]) -> HTTPRequest {
        var copy = HTTPRequest(
            method: method, path: path, queryString: queryString, headerStorage: headerStorage, body: body,
            remoteAddress: remoteAddress)
        copy.peerAddress = peerAddress
        copy.pathParameters = pathParameters
        copy.checkedFraming = checkedFraming
        return copy
    }

    /// Takes the client's address from `X-Forwarded-For` when the peer is a trusted proxy.
    mutating func resolveClient(trustedProxies: [IPNetwork]) {
        // With no proxy trusted the client is the peer, and no header need be read.
        guard !trustedProxies.isEmpty else {
            remoteAddress = peerAddress
            return
        }
        remoteAddress = ForwardedClient.address(
            peer: peerAddress, forwardedFor: header(.forwardedFor), trustedProxies: trustedProxies)
    }

    /// The header `name` (any case).
    public func header(_ name: String) -> String? {
        // Most callers pass a lowercase literal: no new string for them.
        let lowercased = name.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) ? name.lowercased() : name
        switch headerStorage {
        case .dictionary(let headers): return headers[lowercased]
        case .table(let table): return table.value(lowercased)
        }
    }

    /// One of the headers the server reads on every request, found without hashing its name on
    /// the engine.
    func header(_ known: KnownHeader) -> String? {
        switch headerStorage {
        case .dictionary(let headers): headers[known.name]
        case .table(let table): table.value(known)
        }
    }

    /// Where a request's headers are: a dictionary, or lws's table while the engine's callback
    /// holds the request.
    enum HeaderStorage: Sendable {
        case dictionary([String: String])
        case table(LoopHeaderTable)
    }

    /// The query parameters, percent-decoded; the last of a repeated name wins.
    public var query: [String: String] {
        var result: [String: String] = [:]
        for pair in queryString.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.percentDecode(String(parts[0]))
            result[name] = parts.count > 1 ? Self.percentDecode(String(parts[1])) : ""
        }
        return result
    }

    /// The credentials of an `Authorization: Basic …` header, if present and well formed.
    public var basicCredentials: (user: String, password: String)? {
        guard let value = header("authorization") else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic",
            let decoded = Base64.decode(String(parts[1]).trimmingCharactersInWhitespace())
        else { return nil }
        let text = String(decoding: decoded, as: UTF8.self)
        guard let colon = text.firstIndex(of: ":") else { return (text, "") }
        return (String(text[..<colon]), String(text[text.index(after: colon)...]))
    }

    /// The token of an `Authorization: Bearer …` header.
    public var bearerToken: String? {
        guard let value = header("authorization") else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return String(parts[1]).trimmingCharactersInWhitespace()
    }

    /// Whether the request carries `Authorization: Bearer <one of tokens>`, compared in
    /// constant time.
    public func hasBearerToken(in tokens: [String]) -> Bool {
        guard let given = bearerToken else { return false }
        return tokens.contains { ConstantTime.equals($0, given) }
    }

    private static func isHexDigit(_ b: UInt8) -> Bool {
        (b >= 48 && b <= 57) || (b >= 65 && b <= 70) || (b >= 97 && b <= 102)
    }

    /// `text` with its `%XX` escapes decoded, and with `+` as a space in query text
    /// (`plusIsSpace`); a path keeps its `+`.
    package static func percentDecode(_ text: some StringProtocol, plusIsSpace: Bool = true) -> String {
        guard text.contains("%") || (plusIsSpace && text.contains("+")) else { return String(text) }
        var out: [UInt8] = []
        var bytes = Array(text.utf8)[...]
        while let b = bytes.popFirst() {
            if plusIsSpace, b == UInt8(ascii: "+") {
                out.append(0x20)
            } else if b == UInt8(ascii: "%"), bytes.count >= 2, bytes.prefix(2).allSatisfy(Self.isHexDigit),
                let v = UInt8(String(decoding: bytes.prefix(2), as: UTF8.self), radix: 16)
            {
                out.append(v)
                bytes = bytes.dropFirst(2)
            } else {
                out.append(b)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension String {
    func trimmingCharactersInWhitespace() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return String(s)
    }
}
