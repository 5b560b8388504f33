import CourierCore
import CourierHTTP

extension MessengerServer {
    /// Handles one message from a device's delivery socket: a response acknowledges an envelope
    /// (`DeliverySession.receive`); a request is answered on the same socket, as Signal's
    /// clients send them, so a client with a live socket needs no second connection:
    ///
    /// - `{"type":"request","id":3,"verb":"GET","path":"/v1/keepalive"}` → 200 (the app-level ping);
    /// - `{"type":"request","id":4,"verb":"PUT","path":"/v1/messages/{account}","body":{…}}` → the
    ///   same answer as the HTTP route (`{"serverSeq":…,"duplicate":…}`, or the error's status and body);
    /// - `{"type":"request","id":5,"verb":"GET","path":"/v1/messages?after=…&limit=…"}` → a catch-up
    ///   page after the client's cursor, as the HTTP route answers it.
    ///
    /// Answers: `{"type":"response","id":4,"status":200,"body":{…}}`. Sends are queued in the
    /// store in the order they arrive (so a client's sends are stored in the order it sent them)
    /// without waiting for each other's commit: the ones a client sends together share one group
    /// commit, and each is answered when its commit is done, up to `SocketRequestWindow.limit` in
    /// flight per socket; a send waiting for its commit holds no thread and no task (the committer
    /// answers it). The store's other blocking calls run on `storeQueues`, not on the receive loop.
    func socketMessage(_ message: WebSocketMessage, session: DeliverySession, window: SocketRequestWindow) async {
        guard case .text(let text) = message, let frame = try? JSONParser.parse(text) else { return }
        guard frame["type"]?.stringValue == "request" else {
            session.receive(frame)
            return
        }
        guard let id = frame["id"]?.intValue else {
            session.socket.outbound.close(.policyViolation, reason: "a request needs an id")
            return
        }
        let request = Self.socketRequest(frame)
        let response: HTTPResponse
        do throws(HTTPError) {
            switch (request.method.rawValue, request.path) {
            case ("GET", "/v1/keepalive"):
                response = HTTPResponse(status: 200)
            case ("GET", "/v1/messages"):
                response = await storeQueues.run { [self] in
                    Self.responding { () throws(HTTPError) in try pendingMessages(request, from: session.device) }
                }
            case ("PUT", _) where request.path.hasPrefix("/v1/messages/"):
                let account = String(request.path.dropFirst("/v1/messages/".count))
                let queued = try queueSend(request, from: session.device, to: account, socketBody: frame["body"])
                await window.admit()
                // Answered by the committer right after the commit: no task or thread waits for
                // it, and the store's queues stay free for the mailbox reads of deliveries.
                queued.queued.whenCommitted { [self] committed in
                    let response = Self.responding { () throws(HTTPError) in
                        try answer(queued, committed: committed)
                    }
                    Self.respond(id, response, on: session, countingOutOf: window)
                }
                return
            default:
                throw HTTPError(.notFound, "no socket route \(request.method.rawValue) \(request.path)")
            }
        } catch {
            response = error.withTopLevelFields().response()
        }
        await Self.respond(id, response, on: session)
    }

    /// The route's answer, or its error's.
    private static func responding(_ body: () throws(HTTPError) -> HTTPResponse) -> HTTPResponse {
        do {
            return try body()
        } catch {
            return error.withTopLevelFields().response()
        }
    }

    /// Sends the response frame of request `id`.
    private static func respond(_ id: Int64, _ response: HTTPResponse, on session: DeliverySession) async {
        try? await session.socket.outbound.send(.text(responseFrame(id, response)))
    }

    /// Queues the response frame of request `id` if the socket's queue has room now; otherwise
    /// (a peer slow to read) a task waits for room, as any send on the socket does. The send
    /// leaves `window` once its answer is queued (or the socket has closed), so a peer that does
    /// not read is read no further once `SocketRequestWindow.limit` answers wait for it.
    private static func respond(
        _ id: Int64, _ response: HTTPResponse, on session: DeliverySession, countingOutOf window: SocketRequestWindow
    ) {
        let frame = WebSocketMessage.text(responseFrame(id, response))
        if session.socket.outbound.sendIfRoom(frame) {
            window.answered()
            return
        }
        Task {
            try? await session.socket.outbound.send(frame)
            window.answered()
        }
    }

    /// `{"type":"response","id":…,"status":…,"body":…}`. A JSON body (the routes' own, written by
    /// `JSONWriter`) goes in as its bytes, not parsed and written again; any other body is left out.
    static func responseFrame(_ id: Int64, _ response: HTTPResponse) -> String {
        var frame = "{\"type\":\"response\",\"id\":\(id),\"status\":\(response.status.code)"
        if !response.body.isEmpty, response.header("content-type")?.hasPrefix("application/json") == true {
            frame += ",\"body\":"
            frame += String(decoding: response.body, as: UTF8.self)
        }
        frame += "}"
        return frame
    }

    /// A request frame as the HTTP request its route takes; a send's `body` goes to `queueSend`
    /// as it was parsed with the frame.
    private static func socketRequest(_ frame: JSONValue) -> HTTPRequest {
        let verb = frame["verb"]?.stringValue ?? ""
        let target = frame["path"]?.stringValue ?? ""
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = parts.first.map(String.init) ?? ""
        let query = parts.count > 1 ? String(parts[1]) : ""
        return HTTPRequest(method: HTTPMethod(rawValue: verb), path: path, queryString: query, headers: [:], body: [])
    }
}
