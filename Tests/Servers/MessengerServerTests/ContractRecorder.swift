import CourierCore
import CourierTesting
import Foundation
import Synchronization

/// Real exchanges with a real `courier-server`, kept for `Tests/peers/openapi_validate.py`: each
/// request goes out as raw HTTP/1.1 on a fresh connection (no client library between the test and
/// the wire: no redirect following, no decompression), and each answer is kept as it arrived.
final class ContractRecorder: Sendable {
    /// One request and its answer.
    struct Exchange: Sendable {
        let status: Int
        let headers: [String: String]
        let body: [UInt8]

        var json: JSONValue? { try? JSONParser.parse(body) }
        /// A header by its lower-case name.
        func header(_ name: String) -> String? { headers.first { $0.key.lowercased() == name }?.value }
    }

    let port: Int
    private let recorded = Mutex<(exchanges: [JSONValue], frames: [JSONValue])>(([], []))

    init(port: Int) { self.port = port }

    /// Sends one request and records it with its answer.
    /// - Parameters:
    ///   - validateRequest: whether the request itself must match the document; false for the
    ///     requests that break it on purpose to get an error.
    @discardableResult
    func send(
        _ method: String, _ target: String, headers: [String: String] = [:], json: JSONValue? = nil,
        body: [UInt8]? = nil, validateRequest: Bool = true
    ) async throws -> Exchange {
        var headers = headers
        var payload = body
        if let json {
            headers["Content-Type"] = headers["Content-Type"] ?? "application/json"
            payload = JSONWriter.encode(json)
        }
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        if let payload { head += "Content-Length: \(payload.count)\r\n" }
        let request = Array((head + "\r\n").utf8) + (payload ?? [])
        let port = port
        let answer = await runOffPool { () -> (status: Int, head: String, body: [UInt8])? in
            guard let socket = try? RawSocket(port: port, timeoutSeconds: 30), (try? socket.send(request)) != nil
            else { return nil }
            return Self.readAnswer(socket)
        }
        guard let answer else { throw RawSocket.Failure(description: "\(method) \(target): no answer") }
        var responseHeaders: [String: String] = [:]
        for line in answer.head.split(separator: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: colon)...].drop { $0 == " " }
            responseHeaders[String(line[..<colon])] = String(value)
        }
        let exchange = Exchange(status: answer.status, headers: responseHeaders, body: answer.body)
        var entry: [String: JSONValue] = [
            "method": .string(method), "url": .string("http://127.0.0.1:\(port)\(target)"),
            "requestHeaders": .object(headers.mapValues(JSONValue.string)),
            "requestBody": payload.map { .string(String(decoding: $0, as: UTF8.self)) } ?? .null,
            "status": .int(Int64(answer.status)),
            "responseHeaders": .object(responseHeaders.mapValues(JSONValue.string)),
            "validateRequest": .bool(validateRequest),
        ]
        if let text = String(validating: answer.body, as: UTF8.self) {
            entry["responseBody"] = .string(text)
        } else {
            entry["responseBodyBase64"] = .string(Base64.encode(answer.body))
        }
        recorded.withLock { $0.exchanges.append(.object(entry)) }
        return exchange
    }

    /// Records a WebSocket frame, to be validated against `components/schemas/<schema>`.
    func frame(_ frame: JSONValue, schema: String) {
        recorded.withLock { $0.frames.append(["schema": .string(schema), "frame": frame]) }
    }

    /// How many exchanges were recorded.
    var exchangeCount: Int { recorded.withLock { $0.exchanges.count } }

    /// Writes `{"document", "exchanges", "frames"}` to `path`.
    func write(document: JSONValue, to path: String) throws {
        let (exchanges, frames) = recorded.withLock { ($0.exchanges, $0.frames) }
        let record: JSONValue = ["document": document, "exchanges": .array(exchanges), "frames": .array(frames)]
        try Data(JSONWriter.encode(record)).write(to: URL(fileURLWithPath: path))
    }

    /// Reads one answer: the head, then a `Content-Length` body or a chunked body to its last
    /// chunk; of an event stream, which does not end, only what the first chunk carries.
    static func readAnswer(_ socket: RawSocket) -> (status: Int, head: String, body: [UInt8])? {
        var data: [UInt8] = []
        while true {
            if let end = headEnd(data) {
                let head = String(decoding: data[..<end], as: UTF8.self)
                let lowered = head.lowercased()
                let rest = Array(data[(end + 4)...])
                let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
                let streaming = lowered.contains("content-type: text/event-stream")
                if lowered.contains("transfer-encoding: chunked") {
                    if let body = dechunk(rest, firstOnly: streaming) { return (status, head, body) }
                } else if let line = lowered.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") })
                {
                    let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
                    if rest.count >= length { return (status, head, Array(rest.prefix(length))) }
                } else if streaming && !rest.isEmpty {
                    return (status, head, rest)
                }
            }
            guard let more = socket.read() else { return nil }
            data += more
        }
    }

    /// Where the head ends in `data` (the index of its blank line), if it has.
    static func headEnd(_ data: [UInt8]) -> Int? {
        guard data.count >= 4 else { return nil }
        return (0...(data.count - 4)).first {
            data[$0] == 13 && data[$0 + 1] == 10 && data[$0 + 2] == 13 && data[$0 + 3] == 10
        }
    }

    /// The body of a chunked transfer, or `nil` until it is complete (until the first chunk has
    /// arrived, with `firstOnly`).
    static func dechunk(_ bytes: [UInt8], firstOnly: Bool) -> [UInt8]? {
        var body: [UInt8] = []
        var index = 0
        while true {
            guard
                let lineEnd = (index..<max(index, bytes.count - 1)).first(where: {
                    bytes[$0] == 13 && bytes[$0 + 1] == 10
                }),
                let size = Int(
                    String(decoding: bytes[index..<lineEnd], as: UTF8.self).split(separator: ";")[0], radix: 16)
            else { return nil }
            if size == 0 { return body }
            let start = lineEnd + 2
            guard bytes.count >= start + size + 2 else { return nil }
            body += bytes[start..<(start + size)]
            if firstOnly { return body }
            index = start + size + 2
        }
    }
}
