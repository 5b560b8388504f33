import CourierCore
import CourierHTTPClient

/// The messenger server's socket framing (Signal's `WebSocketMessage` shape, as JSON text):
/// requests `{"type":"request","id":…,"verb":…,"path":…,"body":…}` answered by
/// `{"type":"response","id":…,"status":…,"body":…}` in both directions.
///
/// - ping: `GET /v1/keepalive`;
/// - resume: `GET /v1/messages?after=<cursor>&limit=<pageSize>` (pages of `{"id": cursor, "envelope": …}`);
/// - send: `PUT /v1/messages/<destination>` with the item's payload (a JSON object) and its
///   `clientMessageId` set to the item's client id; the ack carries `serverSeq`;
/// - push: the server's `PUT /api/v1/message` request, acknowledged by a 200 response.
public struct RequestResponseProtocol: RealtimeProtocol {
    /// Items per resume page.
    public var pageSize: Int

    /// The messenger framing, with resume pages of `pageSize` items.
    public init(pageSize: Int = 100) { self.pageSize = max(1, pageSize) }

    /// `GET /v1/keepalive`.
    public func ping(id: Int64) -> WebSocketMessage {
        request(id: id, verb: "GET", path: "/v1/keepalive", body: nil)
    }

    /// `GET /v1/messages?after=…`.
    public func resume(after cursor: Int64, id: Int64) -> WebSocketMessage {
        request(id: id, verb: "GET", path: "/v1/messages?after=\(cursor)&limit=\(pageSize)", body: nil)
    }

    /// `PUT /v1/messages/<destination>` with the payload and `clientMessageId`.
    public func send(_ item: OutboxItem, id: Int64) -> WebSocketMessage {
        var body = (try? JSONParser.parse(item.payload))?.objectValue ?? [:]
        body["clientMessageId"] = .string(item.clientId)
        return request(id: id, verb: "PUT", path: "/v1/messages/\(item.destination)", body: .object(body))
    }

    /// Responses, pushed envelopes (as items) and control requests.
    public func read(_ message: WebSocketMessage) -> RealtimeFrame {
        guard case .text(let text) = message, let frame = try? JSONParser.parse(text),
            let id = frame["id"]?.intValue
        else { return .other }
        switch frame["type"]?.stringValue {
        case "response":
            return .response(id: id, status: Int(frame["status"]?.intValue ?? 0), body: frame["body"])
        case "request":
            let acknowledgement = WebSocketMessage.text(#"{"type":"response","id":\#(id),"status":200}"#)
            guard frame["path"]?.stringValue == "/api/v1/message", let body = frame["body"] else {
                return .push(nil, acknowledgement: acknowledgement)
            }
            return .push(Self.item(envelope: body, cursor: nil), acknowledgement: acknowledgement)
        default:
            return .other
        }
    }

    /// `{"serverSeq": …}`.
    public func serverSeq(inAcknowledgement body: JSONValue?) -> Int64? { body?["serverSeq"]?.intValue }

    /// `{"messages":[{"id":…,"envelope":…}],"cursor":…,"more":…}`.
    public func page(inResumeResponse body: JSONValue?) -> RealtimePage? {
        guard let body, let messages = body["messages"]?.arrayValue, let cursor = body["cursor"]?.intValue else {
            return nil
        }
        let items = messages.compactMap { entry in
            entry["envelope"].flatMap { Self.item(envelope: $0, cursor: entry["id"]?.intValue) }
        }
        return RealtimePage(items: items, cursor: cursor, more: body["more"]?.boolValue ?? false)
    }

    private static func item(envelope: JSONValue, cursor: Int64?) -> IncomingItem? {
        guard let source = envelope["sourceAccount"]?.stringValue,
            let clientId = envelope["clientMessageId"]?.stringValue,
            let conversation = envelope["conversationId"]?.stringValue,
            let serverSeq = envelope["serverSeq"]?.intValue
        else { return nil }
        return IncomingItem(
            id: source + "/" + clientId, conversation: conversation, serverSeq: serverSeq, cursor: cursor,
            body: envelope)
    }

    private func request(id: Int64, verb: String, path: String, body: JSONValue?) -> WebSocketMessage {
        var frame: [String: JSONValue] = [
            "type": "request", "id": .int(id), "verb": .string(verb), "path": .string(path),
        ]
        if let body { frame["body"] = body }
        return .text(JSONWriter.string(.object(frame)))
    }
}
