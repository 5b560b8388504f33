import CourierHTTP
import CourierTesting
import Foundation
import Synchronization
import Testing

/// Chunks of a download, numbered: chunk `i` is `size` bytes of `UInt8(i % 251)`. Counts how
/// many the server has pulled.
struct NumberedChunks: AsyncSequence, Sendable {
    let count: Int
    let size: Int
    let pulled: Pulled

    final class Pulled: Sendable {
        private let value = Atomic<Int>(0)
        var count: Int { value.load(ordering: .acquiring) }
        func add() { value.add(1, ordering: .acquiringAndReleasing) }
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let chunks: NumberedChunks
        var index = 0

        mutating func next() async -> [UInt8]? {
            guard index < chunks.count else { return nil }
            defer { index += 1 }
            chunks.pulled.add()
            return [UInt8](repeating: UInt8(index % 251), count: chunks.size)
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(chunks: self) }

    /// Whether `bytes` is exactly the whole download.
    func matches(_ bytes: [UInt8]) -> Bool {
        guard bytes.count == count * size else { return false }
        for index in 0..<count
        where bytes[index * size] != UInt8(index % 251) || bytes[(index + 1) * size - 1] != UInt8(index % 251) {
            return false
        }
        return true
    }
}

/// What a streaming upload handler saw: each chunk as it arrived, and a signal per chunk.
final class UploadLog: Sendable {
    private let chunks = Mutex<[[UInt8]]>([])
    let chunkArrived = DispatchSemaphore(value: 0)
    func add(_ chunk: [UInt8]) {
        chunks.withLock { $0.append(chunk) }
        chunkArrived.signal()
    }
    var all: [[UInt8]] { chunks.withLock { $0 } }
}

/// Handlers as tasks on libwebsockets, streamed request bodies and streamed downloads.
@Suite(.timeLimit(.minutes(2)))
struct LibWebSocketsStreamingTests {
    let server: HTTPServer
    let client = HTTPClient(timeout: .seconds(30))
    let held = Gate()
    let uploads = UploadLog()
    let download = NumberedChunks(count: 128, size: 64 * 1024, pulled: .init())
    let endless = NumberedChunks(count: 512, size: 64 * 1024, pulled: .init())
    static let maximumBodyBytes = 64 * 1024

    init() throws {
        var router = Router()
        held.addSlowRoute(to: &router)
        router.add("GET", "/fast") { _, _ in .text("fast") }
        router.add("GET", "/fails/{how}") { request, _ in
            await Task.yield()
            if request.pathParameters["how"] == "teapot" {
                throw HTTPError(HTTPError.Code("teapot", status: 418), "short and stout")
            }
            throw CancellationError()
        }
        let uploads = self.uploads
        router.add("POST", "/upload", body: .stream) { request, _ in
            var total = 0
            for try await chunk in request.bodyStream {
                total += chunk.count
                uploads.add(chunk)
            }
            return .json(["bytes": .int(Int64(total))])
        }
        router.add("POST", "/whole") { request, _ in .json(["bytes": .int(Int64(request.body.count))]) }
        let download = self.download
        router.add("GET", "/download") { _, _ in
            HTTPResponse(status: 200, headers: [("Content-Type", "application/octet-stream")], bodyStream: download)
        }
        let endless = self.endless
        router.add("GET", "/endless") { _, _ in
            HTTPResponse(status: 200, bodyStream: endless, length: endless.count * endless.size)
        }
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        configuration.maximumBodyBytes = Self.maximumBodyBytes
        // Long enough that a test thread held up by the other suites running at once (seconds, on
        // 2 cores) is never taken for a late client: a piece answered 408 mid-test left the
        // piece-by-piece test waiting for a chunk that could no longer come.
        configuration.requestTimeoutMilliseconds = 90_000
        configuration.bodyReadTimeoutMilliseconds = 15_000
        server = HTTPServer(configuration: configuration, router: router)
        try server.start()
    }

    @Test func aHandlersErrorIsAnsweredAfterItAwaited() async throws {
        defer { inBackground { [server] in server.stop() } }
        let teapot = try await client.send("GET", server.baseURL + "/fails/teapot")
        #expect(teapot.status == 418)
        #expect(teapot.json?["error"]?["code"] == "teapot")
        let other = try await client.send("GET", server.baseURL + "/fails/other")
        #expect(other.status == 500)
        #expect(other.json?["error"]?["code"] == "internal_error")
    }

    /// More handlers await than Swift's pool has threads, and a fast request is still answered.
    @Test func slowHandlersDoNotDelayAFastOne() async throws {
        defer { inBackground { [server] in server.stop() } }
        let slowCount = 2 * ProcessInfo.processInfo.activeProcessorCount + 2
        let slow = (0..<slowCount).map { _ in
            Task { [client, server] in try await client.send("POST", server.baseURL + "/slow", body: [1]) }
        }
        for _ in 0..<slowCount { #expect(await waitOffPool(held.entered)) }
        let fast = try await client.send("GET", server.baseURL + "/fast")
        #expect(fast.status == 200)
        #expect(String(decoding: fast.body, as: UTF8.self) == "fast")
        held.open()
        for request in slow { #expect(try await request.value.json == ["received": 1]) }
    }

    /// The handler gets each piece while the client is still sending: the client sends the next
    /// only once the handler has seen the last.
    @Test func aStreamedBodyReachesTheHandlerPieceByPiece() async throws {
        defer { inBackground { [server] in server.stop() } }
        let socket = try RawSocket(port: server.port)
        let pieces = ["first,", "second,", "third"]
        try socket.send(
            "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: \(pieces.joined().utf8.count)\r\n\r\n")
        for piece in pieces {
            try socket.send(piece)
            #expect(await waitOffPool(uploads.chunkArrived))
        }
        let response = await runOffPool { socket.readResponse() }
        #expect(response?.status == 200)
        #expect(response.map { String(decoding: $0.body, as: UTF8.self) } == #"{"bytes":18}"#)
        #expect(uploads.all.map { String(decoding: $0, as: UTF8.self) } == pieces)
    }

    @Test func aChunkedStreamedBodyIsDecodedAsItArrives() async throws {
        defer { inBackground { [server] in server.stop() } }
        let socket = try RawSocket(port: server.port)
        try socket.send("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n")
        #expect(await waitOffPool(uploads.chunkArrived))
        try socket.send("6\r\n world\r\n0\r\n\r\n")
        let response = await runOffPool { socket.readResponse() }
        #expect(response?.status == 200)
        #expect(response.map { String(decoding: $0.body, as: UTF8.self) } == #"{"bytes":11}"#)
        #expect(uploads.all.joined().elementsEqual("hello world".utf8))
    }

    /// A chunked body has no declared length: the limit is found while it streams, the read
    /// throws 413 and the connection closes.
    @Test func aStreamedBodyOverTheLimitIs413AndCloses() async throws {
        defer { inBackground { [server] in server.stop() } }
        let socket = try RawSocket(port: server.port)
        let piece = "4000\r\n" + String(repeating: "a", count: 0x4000) + "\r\n"
        try socket.send("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        for _ in 0..<(Self.maximumBodyBytes / 0x4000 + 1) { try socket.send(piece) }
        let result = await runOffPool { socket.readUntilClosed() }
        #expect(result.timedOut == false)
        let text = String(decoding: result.bytes, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 413"))
        #expect(text.lowercased().contains("connection: close"))
        #expect(uploads.all.reduce(0) { $0 + $1.count } <= Self.maximumBodyBytes)
    }

    /// `bodyReadTimeoutMilliseconds` (15 s) ends a body whose next piece is late, long before the
    /// whole body's 90 s deadline; streamed or whole.
    @Test(arguments: ["/upload", "/whole"])
    func aLatePieceIsAnswered408(path: String) async throws {
        defer { inBackground { [server] in server.stop() } }
        let socket = try RawSocket(port: server.port, timeoutSeconds: 50)
        try socket.send("POST \(path) HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nsome of it")
        let started = ContinuousClock.now
        let result = await runOffPool { socket.readUntilClosed() }
        #expect(result.timedOut == false)
        #expect(String(decoding: result.bytes, as: UTF8.self).hasPrefix("HTTP/1.1 408"))
        #expect(ContinuousClock.now - started < .seconds(60))
    }

    @Test func aStreamedDownloadOfSeveralMegabytesArrivesWhole() async throws {
        defer { inBackground { [server] in server.stop() } }
        let response = try await client.send("GET", server.baseURL + "/download")
        #expect(response.status == 200)
        #expect(response.body.count == download.count * download.size)
        #expect(download.matches(response.body))
        // HEAD: the head only, and the stream is never pulled for it.
        let pulledBefore = download.pulled.count
        let head = try await client.send("HEAD", server.baseURL + "/download")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(download.pulled.count == pulledBefore)
    }

    /// A client that stops reading stops the producer: the sequence is pulled only as far as the
    /// kernel's socket buffers and a few chunks in the pipe take, far from its 32 MB; once the
    /// client reads again, the rest arrives intact.
    @Test func aDownloadToAClientThatStopsReadingIsNotPulledAhead() async throws {
        defer { inBackground { [server] in server.stop() } }
        let socket = try RawSocket(port: server.port, timeoutSeconds: 30, receiveBufferBytes: 64 * 1024)
        try socket.send("GET /endless HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        // The client reads nothing. Proving that something does *not* happen needs the producer
        // to have gone quiet: sample its count until it holds still for half a second.
        var last = -1
        var stableSamples = 0
        for _ in 0..<200 where stableSamples < 5 {
            try await Task.sleep(for: .milliseconds(100))
            let now = endless.pulled.count
            stableSamples = now == last ? stableSamples + 1 : 0
            last = now
        }
        #expect(stableSamples >= 5)
        // Kernel buffers here: the server's send buffer grows to 4 MB at most (tcp_wmem), the
        // client's receive buffer is fixed at 64 KB: about 66 chunks, plus the pipe's 4 and one
        // in lws's hands.
        #expect(last > 0)
        #expect(last < 100)
        let result = await runOffPool { socket.readUntilClosed() }
        #expect(result.timedOut == false)
        guard let end = result.bytes.firstRange(of: Array("\r\n\r\n".utf8))?.upperBound else {
            Issue.record("no head")
            return
        }
        #expect(endless.matches(Array(result.bytes[end...])))
        #expect(endless.pulled.count == endless.count)
    }
}
