import Foundation

/// Where a `ws://` or `wss://` URL points: what the client connects to and asks for.
package struct WebSocketEndpoint: Sendable, Equatable {
    /// `wss://`: TLS, with the server's certificate checked.
    package var secure: Bool
    /// The host to resolve and connect to (an IPv6 address without its brackets).
    package var host: String
    package var port: Int
    /// The request target: the path (at least `/`) and the query, still percent-encoded.
    package var target: String

    /// The `Host` header: the host, and the port when it is not the scheme's default.
    package var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == (secure ? 443 : 80) ? name : "\(name):\(port)"
    }

    /// Reads a WebSocket URL.
    /// - Throws: `WebSocketError` `invalidURL` for another scheme, no host, a bad port, or a
    ///   fragment (RFC 6455 §3 forbids one).
    package init(parsing text: String) throws(WebSocketError) {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            throw WebSocketError(.invalidURL, "\"\(text)\" is not a URL")
        }
        switch scheme {
        case "ws": secure = false
        case "wss": secure = true
        default: throw WebSocketError(.invalidURL, "\"\(text)\": the scheme must be ws or wss, not \(scheme)")
        }
        var host = components.host ?? ""
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw WebSocketError(.invalidURL, "\"\(text)\" has no host") }
        guard components.fragment == nil else {
            throw WebSocketError(.invalidURL, "\"\(text)\": a WebSocket URL has no fragment")
        }
        let port = components.port ?? (secure ? 443 : 80)
        guard (1...65535).contains(port) else { throw WebSocketError(.invalidURL, "\"\(text)\": bad port \(port)") }
        self.host = host
        self.port = port
        let path = components.percentEncodedPath
        target = (path.isEmpty ? "/" : path) + (components.percentEncodedQuery.map { "?\($0)" } ?? "")
    }
}
