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
    /// Answers: `{"type":"response","id":4,"status":200,"body":{…}}`. Requests run one at a time in
    /// the order they arrive, so a client's sends are stored in the order it sent them.
    func socketMessage(_ message: WebSocketMessage, session: DeliverySession) async {
        guard case .text(let text) = message, let frame = try? JSONParser.parse(text) else { return }
        guard frame["type"]?.stringValue == "request" else {
            session.receive(frame)
            return
        }
        guard let id = frame["id"]?.intValue else {
            session.socket.outbound.close(.policyViolation, reason: "a request needs an id")
            return
        }
        let response = socketRequest(frame, device: session.device)
        var answer: [String: JSONValue] = [
            "type": "response", "id": .int(id), "status": .int(Int64(response.status.code)),
        ]
        if !response.body.isEmpty, let body = try? JSONParser.parse(response.body) { answer["body"] = body }
        try? await session.socket.outbound.send(.text(JSONWriter.string(.object(answer))))
    }

    private func socketRequest(_ frame: JSONValue, device: AuthenticatedDevice) -> HTTPResponse {
        let verb = frame["verb"]?.stringValue ?? ""
        let target = frame["path"]?.stringValue ?? ""
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = parts.first.map(String.init) ?? ""
        let query = parts.count > 1 ? String(parts[1]) : ""
        let body = frame["body"].map(JSONWriter.encode) ?? []
        let request = HTTPRequest(
            method: HTTPMethod(rawValue: verb), path: path, queryString: query,
            headers: body.isEmpty ? [:] : ["content-type": "application/json"], body: body)
        do {
            switch (verb, path) {
            case ("GET", "/v1/keepalive"):
                return HTTPResponse(status: 200)
            case ("GET", "/v1/messages"):
                return try pendingMessages(request, from: device)
            case ("PUT", _) where path.hasPrefix("/v1/messages/"):
                let account = String(path.dropFirst("/v1/messages/".count))
                return try sendMessage(request, from: device, to: account)
            default:
                return HTTPError(.notFound, "no socket route \(verb) \(path)").withTopLevelFields().response()
            }
        } catch {
            return error.withTopLevelFields().response()
        }
    }
}
