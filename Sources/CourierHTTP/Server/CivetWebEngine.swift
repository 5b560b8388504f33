internal import CCivetWeb
import CourierCore
import Foundation

/// Owns one civetweb context. civetweb calls `civetWebRequestHandler` on its worker threads with
/// a pointer to the `ResponderBox` retained here.
final class CivetWebEngine: @unchecked Sendable {
    // @unchecked: `context` is written once in init and only read afterwards; `HTTPServer` takes
    // the engine out of its mutex before calling `stop()`, so `stop()` runs at most once.
    private let context: OpaquePointer
    private let box: Unmanaged<ResponderBox>
    let port: Int

    private static let libraryInitialised: Bool = {
        mg_init_library(0)
        return true
    }()

    init(configuration: HTTPServerConfiguration, responder: Responder) throws {
        _ = Self.libraryInitialised
        let options: [(String, String)] = [
            ("listening_ports", "\(configuration.host):\(configuration.port)"),
            ("num_threads", String(max(1, configuration.workerThreads))),
            ("request_timeout_ms", String(configuration.requestTimeoutMilliseconds)),
            ("keep_alive_timeout_ms", String(configuration.keepAliveTimeoutMilliseconds)),
            ("enable_keep_alive", "yes"),
            ("tcp_nodelay", "1"),
            ("linger_timeout_ms", "1000"),
            // CORS is the router's: civetweb would otherwise answer every preflight itself.
            ("access_control_allow_origin", ""),
        ]
        var cStrings: [UnsafeMutablePointer<CChar>?] = []
        for (k, v) in options {
            cStrings.append(strdup(k))
            cStrings.append(strdup(v))
        }
        cStrings.append(nil)
        defer { cStrings.forEach { free($0) } }

        var callbacks = mg_callbacks()
        callbacks.log_message = civetWebLogMessage
        let box = Unmanaged.passRetained(ResponderBox(responder, handlerThreads: configuration.handlerThreads))
        var optionPointers: [UnsafePointer<CChar>?] = cStrings.map { $0.map { UnsafePointer($0) } }
        let started: OpaquePointer? = optionPointers.withUnsafeMutableBufferPointer { buffer in
            mg_start(&callbacks, nil, buffer.baseAddress)
        }
        guard let started else {
            box.takeUnretainedValue().executor.stop()
            box.release()
            throw HTTPServerError(
                "cannot listen on \(configuration.host):\(configuration.port) (address in use or not available)")
        }
        mg_set_request_handler(started, "/", civetWebRequestHandler, box.toOpaque())
        var ports = [mg_server_port](repeating: mg_server_port(), count: 4)
        let n = mg_get_server_ports(started, Int32(ports.count), &ports)
        context = started
        self.box = box
        port = n > 0 ? Int(ports[0].port) : configuration.port
    }

    /// Answers what is in flight (new requests get 503), then stops civetweb.
    /// - Returns: requests still unanswered when `deadline` passed.
    func stop(deadline: Duration) -> Int {
        let owner = box.takeUnretainedValue()
        let left = owner.responder.lifecycle.drain(quiet: .milliseconds(100), deadline: deadline)
        mg_stop(context)
        owner.watchdog.stop()
        owner.executor.stop()
        box.release()
        return left
    }
}

/// Holds what the C callbacks need: the responder, and the watchdog that ends body reads civetweb
/// would keep waiting in.
final class ResponderBox: Sendable {
    let responder: Responder
    let watchdog = BodyReadWatchdog()
    /// Where the middleware chain and handlers run while a civetweb worker waits for them.
    let executor: HandlerExecutor
    init(_ responder: Responder, handlerThreads: Int) {
        self.responder = responder
        executor = HandlerExecutor(count: handlerThreads, name: "courier.http.civetweb")
    }
}

private func civetWebLogMessage(_ connection: OpaquePointer?, _ message: UnsafePointer<CChar>?) -> Int32 {
    // Returning 1 keeps civetweb from printing its own errors (a closed socket, a timeout) to
    // stderr; the access log already records each request.
    1
}

private func civetWebRequestHandler(_ connection: OpaquePointer?, _ data: UnsafeMutableRawPointer?) -> Int32 {
    guard let connection, let data, let infoPointer = mg_get_request_info(connection) else { return 0 }
    let started = DispatchTime.now().uptimeNanoseconds
    let owner = Unmanaged<ResponderBox>.fromOpaque(data).takeUnretainedValue()
    let responder = owner.responder
    responder.lifecycle.enter()
    defer { responder.lifecycle.leave() }
    let info = infoPointer.pointee
    let method = HTTPMethod(rawValue: info.request_method.map { String(cString: $0) } ?? "GET")
    let path = info.local_uri.map { String(cString: $0) } ?? "/"
    let query = info.query_string.map { String(cString: $0) } ?? ""
    var headers: [String: String] = [:]
    withUnsafeBytes(of: info.http_headers) { raw in
        let all = raw.bindMemory(to: mg_header.self)
        for i in 0..<min(Int(info.num_headers), all.count) {
            guard let name = all[i].name, let value = all[i].value else { continue }
            let key = String(cString: name).lowercased()
            let text = String(cString: value)
            if let existing = headers[key] { headers[key] = existing + ", " + text } else { headers[key] = text }
        }
    }
    let remote = withUnsafeBytes(of: info.remote_addr) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
    let configuration = responder.configuration
    let limit = configuration.maximumBodyBytes
    var outcome = BodyOutcome.complete([])
    var cut = false
    if info.content_length > Int64(limit) {
        outcome = .tooLarge
    } else if info.content_length != 0 {
        let deadline = started &+ UInt64(max(1, configuration.requestTimeoutMilliseconds)) * 1_000_000
        let ticket = owner.watchdog.watch(
            .init(serverPort: Int(info.server_port), remoteAddress: remote, remotePort: Int(info.remote_port)),
            deadline: deadline)
        outcome = readBody(connection, expected: info.content_length, limit: limit, deadline: deadline)
        cut = owner.watchdog.finish(ticket)
    }
    let request = HTTPRequest(
        method: method, path: path, queryString: query, headers: headers,
        body: outcome.body, remoteAddress: remote)
    let response: HTTPResponse
    if case .incomplete = outcome {
        // A body cut off by a timeout or a reset never reaches a handler as if it were whole.
        response = responder.refuseIncomplete(request, startedAt: started)
    } else {
        response = responder.respond(
            to: request, bodyTooLarge: outcome.isTooLarge, startedAt: started, waitingOn: owner.executor)
    }
    if outcome.isTooLarge || outcome.isIncomplete || cut || Responder.framingProblem(headers) != nil
        || responder.lifecycle.isDraining
    {
        // The rest of the body is still on the socket, the framing is in doubt, or the server is
        // stopping: close instead of reading another request from this connection.
        mg_disable_connection_keep_alive(connection)
    }
    write(response, to: connection, headOnly: method == "HEAD")
    return Int32(response.status.code)
}

/// What reading a request body gave.
private enum BodyOutcome {
    case complete([UInt8])
    case tooLarge
    case incomplete

    var body: [UInt8] {
        if case .complete(let bytes) = self { return bytes }
        return []
    }
    var isTooLarge: Bool {
        if case .tooLarge = self { return true }
        return false
    }
    var isIncomplete: Bool {
        if case .incomplete = self { return true }
        return false
    }
}

/// Reads the body up to `limit` bytes, within one deadline for the whole body (civetweb's own
/// timeout applies to each read, and a read waits for its whole buffer: `BodyReadWatchdog` ends
/// a read that is still waiting at the deadline).
private func readBody(_ connection: OpaquePointer, expected: Int64, limit: Int, deadline: UInt64) -> BodyOutcome {
    var body: [UInt8] = []
    if expected > 0 { body.reserveCapacity(Int(expected)) }
    var chunk = [UInt8](repeating: 0, count: 16 * 1024)
    while true {
        let n = chunk.withUnsafeMutableBytes { mg_read(connection, $0.baseAddress, $0.count) }
        if n < 0 { return .incomplete }
        if n == 0 { break }
        if body.count + Int(n) > limit { return .tooLarge }
        body.append(contentsOf: chunk[0..<Int(n)])
        if DispatchTime.now().uptimeNanoseconds > deadline { return .incomplete }
    }
    if expected >= 0 && Int64(body.count) != expected { return .incomplete }
    return .complete(body)
}

private func write(_ response: HTTPResponse, to connection: OpaquePointer, headOnly: Bool) {
    mg_response_header_start(connection, Int32(response.status.code))
    for (name, value) in response.headers {
        mg_response_header_add(connection, name, value, -1)
    }
    mg_response_header_add(connection, "Content-Length", String(response.body.count), -1)
    mg_response_header_send(connection)
    if !headOnly, !response.body.isEmpty {
        response.body.withUnsafeBytes { _ = mg_write(connection, $0.baseAddress, $0.count) }
    }
}
