import CourierCore
import CourierHTTP
import Synchronization

/// Answers the messenger framing on a fake socket: keepalives with 200, resumes with an empty
/// page, sends with increasing `serverSeq` (the same one again for a repeated client id), and a
/// 404 for sends to `poisonDestination`; sends to `silentDestination` get no answer.
final class FakeMessengerResponder: Sendable {
    private struct State {
        var nextSeq: Int64 = 1
        var seqByClientId: [String: Int64] = [:]
        var requests: [String] = []
    }

    private let state = Mutex(State())
    let poisonDestination = "nobody"
    let silentDestination = "silent"

    /// The `verb path` of every request, in order.
    var requests: [String] { state.withLock { $0.requests } }

    func respond(_ message: WebSocketMessage) -> [WebSocketMessage] {
        guard case .text(let text) = message, let frame = try? JSONParser.parse(text),
            frame["type"]?.stringValue == "request", let id = frame["id"]?.intValue,
            let path = frame["path"]?.stringValue, let verb = frame["verb"]?.stringValue
        else { return [] }
        let (status, body): (Int, JSONValue?) = state.withLock { state in
            state.requests.append("\(verb) \(path)")
            if path == "/v1/keepalive" { return (200, nil) }
            if path.hasPrefix("/v1/messages?") { return (200, ["messages": [], "cursor": 0, "more": false]) }
            if path == "/v1/messages/\(poisonDestination)" { return (404, ["code": "not_found"]) }
            if path == "/v1/messages/\(silentDestination)" { return (0, nil) }
            let clientId = frame["body"]?["clientMessageId"]?.stringValue ?? ""
            let seq = state.seqByClientId[clientId] ?? state.nextSeq
            if state.seqByClientId[clientId] == nil {
                state.seqByClientId[clientId] = seq
                state.nextSeq += 1
            }
            return (200, ["serverSeq": .int(seq)])
        }
        guard status != 0 else { return [] }
        var answer: [String: JSONValue] = ["type": "response", "id": .int(id), "status": .int(Int64(status))]
        if let body { answer["body"] = body }
        return [.text(JSONWriter.string(.object(answer)))]
    }
}
