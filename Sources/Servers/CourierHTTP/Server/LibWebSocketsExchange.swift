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
    let method: HTTPMethod
    let path: String
    let queryString: String
    /// The request's headers, read from lws while the callbacks of this transaction run.
    private var headerTable: LoopHeaderTable
    let remoteAddress: String
    /// The `Content-Length` the client declared, if any.
    let declaredLength: Int64?
    /// Whether body callbacks will follow the headers.
    let expectsBody: Bool
    /// Why the request's framing is ambiguous (`Responder.framingProblem`), or `nil`.
    let framingProblem: String?
    var phase = Phase.receiving
    var body: [UInt8] = []
    /// Set for a chunked body, which lws 4.1 passes on with its framing.
    var dechunker: ChunkedBodyDecoder?
    /// Close the connection after the answer instead of keeping it alive.
    var closeAfter = false
    /// The answer is prepared and is written by the callback that started the handler
    /// (`LibWebSocketsService.writeIfAnswered`), not in a writable callback.
    var writesInCallback = false
    /// The serialised answer (or a streamed answer's head), with `LWS_PRE` bytes of headroom,
    /// once the handler has answered.
    private(set) var outgoing: [UInt8]?
    /// The router's answer, found when the headers arrived.
    var match: Router.Match = .notFound
    /// When the whole body must have arrived (monotonic nanoseconds).
    var bodyDeadline: UInt64 = 0
    /// A streamed request body still arriving, and the bytes of it so far.
    var feed: RequestBodyFeed?
    var received = 0
    /// A streamed answer's chunks, and the task producing them.
    var pipe: ResponseBodyPipe?
    var producer: Task<Void, Never>?
    /// Whether a streamed answer is sent chunked, and what is left of its declared length.
    var chunked = false
    var remaining = 0

    /// Reads what lws has parsed of the request's head; `remoteAddress` is the connection's peer.
    init?(wsi: OpaquePointer, remoteAddress: String, extraHeaderNames: [String] = []) {
        guard let method = LibWebSocketsHeaders.method(wsi) else { return nil }
        self.wsi = wsi
        started = DispatchTime.now().uptimeNanoseconds
        self.method = method.method
        path = LibWebSocketsHeaders.copy(wsi, method.token) ?? "/"
        queryString = LibWebSocketsHeaders.query(wsi)
        headerTable = LoopHeaderTable(wsi: wsi, extraNames: extraHeaderNames)
        self.remoteAddress = remoteAddress
        // Each framing header is looked up once, here.
        let contentLength = headerTable.value(.contentLength)
        let transferEncoding = headerTable.value(.transferEncoding)
        let chunkedBody = transferEncoding?.lowercased().contains("chunked") == true
        declaredLength = contentLength.flatMap { Int64($0.trimmingCharactersInWhitespace()) }
        expectsBody = declaredLength.map { $0 > 0 } ?? chunkedBody
        framingProblem = Responder.framingProblem(contentLength: contentLength, transferEncoding: transferEncoding)
        if contentLength == nil, chunkedBody { dechunker = ChunkedBodyDecoder() }
    }

    /// The request as the handler gets it in the callback, its headers read from lws's table
    /// until `leaveLoop()`.
    func request() -> HTTPRequest {
        request(headerStorage: .table(headerTable))
    }

    /// The request for a handler that runs after the callback that dispatches it (a handler task,
    /// a WebSocket): its headers copied out of lws's table.
    func requestLeavingTheLoop() -> HTTPRequest {
        guard let headers = headerTable.leaveLoop(shared: true) else {
            assertionFailure("a request's headers were let go before it left the loop")
            return request(headerStorage: .dictionary([:]))
        }
        return request(headerStorage: .dictionary(headers))
    }

    private func request(headerStorage: HTTPRequest.HeaderStorage) -> HTTPRequest {
        var request = HTTPRequest(
            method: method, path: path, queryString: queryString, headerStorage: headerStorage, body: body,
            remoteAddress: remoteAddress)
        request.bodyFeed = feed
        request.checkedFraming = HTTPRequest.FramingCheck(problem: framingProblem)
        return request
    }

    /// Ends the reads from lws's table after a request was handled in the callback, before the
    /// answer is written (which may end the transaction, and lws's table with it): the headers
    /// are copied only when a copy of the request is still held (a handler that suspended or
    /// kept it).
    /// - Returns: whether they were copied.
    func leaveLoop() -> Bool {
        let shared = !isKnownUniquelyReferenced(&headerTable)
        _ = headerTable.leaveLoop(shared: shared)
        return shared
    }

    /// Serialises the status line, headers and body into one buffer; for a streamed body, the
    /// status line and headers only.
    func prepare(_ response: HTTPResponse) {
        let body = method == .head ? [] : response.body
        // One allocation: the headroom, then the head, then the body.
        var headBytes = 128
        for (name, value) in response.headers { headBytes += name.utf8.count + value.utf8.count + 4 }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(courier_lws_pre() + headBytes + body.count)
        bytes.append(contentsOf: repeatElement(0, count: courier_lws_pre()))
        defer { outgoing = bytes }
        bytes.append(contentsOf: "HTTP/1.1 ".utf8)
        bytes.appendDecimal(response.status.code)
        bytes.append(0x20)
        bytes.appendUTF8(response.status.reasonPhrase)
        bytes.append(contentsOf: "\r\n".utf8)
        for (name, value) in response.headers {
            bytes.appendUTF8(name)
            bytes.append(contentsOf: ": ".utf8)
            bytes.appendUTF8(value)
            bytes.append(contentsOf: "\r\n".utf8)
        }
        if let stream = response.bodyStream {
            if let length = stream.length {
                remaining = length
                bytes.append(contentsOf: "Content-Length: ".utf8)
                bytes.appendDecimal(length)
            } else {
                chunked = true
                bytes.append(contentsOf: "Transfer-Encoding: chunked".utf8)
            }
        } else {
            bytes.append(contentsOf: "Content-Length: ".utf8)
            bytes.appendDecimal(response.body.count)
        }
        bytes.append(contentsOf: closeAfter ? "\r\nConnection: close\r\n\r\n".utf8 : "\r\n\r\n".utf8)
        bytes.append(contentsOf: body)
    }

    /// Writes one chunk of a streamed answer (framed when chunked) with one `lws_write`.
    func send(chunk: [UInt8]) -> Int32 {
        var bytes = [UInt8](repeating: 0, count: courier_lws_pre())
        bytes.reserveCapacity(bytes.count + chunk.count + 12)
        if chunked {
            bytes.append(contentsOf: String(chunk.count, radix: 16).utf8)
            bytes.append(contentsOf: "\r\n".utf8)
        }
        bytes.append(contentsOf: chunk)
        if chunked { bytes.append(contentsOf: "\r\n".utf8) }
        remaining -= chunk.count
        outgoing = bytes
        return send()
    }

    /// Ends a streamed answer: the last chunk when chunked. Returns whether the answer is whole
    /// (a declared length met) and the connection may be kept.
    func sendEnd() -> Bool {
        guard chunked else { return remaining == 0 }
        var bytes = [UInt8](repeating: 0, count: courier_lws_pre())
        bytes.append(contentsOf: "0\r\n\r\n".utf8)
        outgoing = bytes
        return send() >= 0
    }

    /// Writes the prepared answer (after its headroom) with one `lws_write`; lws keeps what the
    /// kernel does not take at once and sends it before anything else on this connection.
    func send() -> Int32 {
        guard var bytes = outgoing.take() else { return 0 }
        let pre = courier_lws_pre()
        return bytes.withUnsafeMutableBytes { raw in
            let start = raw.baseAddress!.advanced(by: pre).assumingMemoryBound(to: UInt8.self)
            return lws_write(wsi, start, raw.count - pre, LWS_WRITE_HTTP)
        }
    }
}

extension [UInt8] {
    /// Appends `text`'s UTF-8 bytes with one copy from its storage.
    mutating func appendUTF8(_ text: String) {
        let copied: Void? = text.utf8.withContiguousStorageIfAvailable { append(contentsOf: $0) }
        if copied == nil { append(contentsOf: text.utf8) }
    }

    /// Appends `value` in decimal ASCII.
    mutating func appendDecimal(_ value: Int) {
        guard value >= 0, value < 1_000_000_000_000_000 else { return append(contentsOf: String(value).utf8) }
        var divisor = 1
        while divisor <= value / 10 { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            append(0x30 + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }
}
