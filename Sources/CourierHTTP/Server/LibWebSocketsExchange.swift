internal import CLibWebSockets
import Foundation

/// One request on a libwebsockets connection, from its headers to the answer written. Lives on
/// the service thread only; its `wsi` is used only while the service holds it in its table (it is
/// removed when the connection closes).
final class LibWebSocketsExchange {
    enum Phase { case receiving, handling }
    enum Outcome { case complete, tooLarge, incomplete }

    let wsi: OpaquePointer
    let started: UInt64
    let method: String
    let path: String
    let queryString: String
    let headers: [String: String]
    let remoteAddress: String
    var phase = Phase.receiving
    var body: [UInt8] = []
    /// Set for a chunked body, which lws 4.1 passes on with its framing.
    var dechunker: ChunkedBodyDecoder?
    /// Close the connection after the answer instead of keeping it alive.
    var closeAfter = false
    /// The serialised answer, with `LWS_PRE` bytes of headroom, once the handler has answered.
    private(set) var outgoing: [UInt8]?

    /// Reads what lws has parsed of the request's head.
    init?(wsi: OpaquePointer, extraHeaderNames: [String] = []) {
        guard let method = LibWebSocketsHeaders.method(wsi) else { return nil }
        self.wsi = wsi
        started = DispatchTime.now().uptimeNanoseconds
        self.method = method.name
        path = LibWebSocketsHeaders.copy(wsi, method.token) ?? "/"
        queryString = LibWebSocketsHeaders.query(wsi)
        headers = LibWebSocketsHeaders.all(wsi, extraNames: extraHeaderNames)
        var peer = [CChar](repeating: 0, count: 64)
        lws_get_peer_simple(wsi, &peer, peer.count)
        remoteAddress = String(decoding: peer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if headers["content-length"] == nil, headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
            dechunker = ChunkedBodyDecoder()
        }
    }

    /// The `Content-Length` the client declared, if any.
    var declaredLength: Int64? {
        headers["content-length"].flatMap { Int64($0.trimmingCharactersInWhitespace()) }
    }

    /// Whether body callbacks will follow the headers.
    var expectsBody: Bool {
        if let length = declaredLength { return length > 0 }
        return headers["transfer-encoding"]?.lowercased().contains("chunked") == true
    }

    func request() -> HTTPRequest {
        HTTPRequest(
            method: HTTPMethod(rawValue: method), path: path, queryString: queryString, headers: headers, body: body,
            remoteAddress: remoteAddress)
    }

    /// Serialises the status line, headers and body into one buffer.
    func prepare(_ response: HTTPResponse) {
        var head = "HTTP/1.1 \(response.status.code) \(response.status.reasonPhrase)\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(response.body.count)\r\n"
        if closeAfter { head += "Connection: close\r\n" }
        head += "\r\n"
        var bytes = [UInt8](repeating: 0, count: courier_lws_pre())
        bytes.reserveCapacity(bytes.count + head.utf8.count + response.body.count)
        bytes.append(contentsOf: head.utf8)
        if method != "HEAD" { bytes.append(contentsOf: response.body) }
        outgoing = bytes
    }

    /// Writes `bytes` (after their headroom) with one `lws_write`; lws keeps what the kernel does
    /// not take at once and sends it before anything else on this connection.
    func send(_ bytes: [UInt8]) -> Int32 {
        var bytes = bytes
        outgoing = nil
        let pre = courier_lws_pre()
        return bytes.withUnsafeMutableBytes { raw in
            let start = raw.baseAddress!.advanced(by: pre).assumingMemoryBound(to: UInt8.self)
            return lws_write(wsi, start, raw.count - pre, LWS_WRITE_HTTP)
        }
    }
}
