import CourierCore
import CourierHTTPClient

extension RealtimeConnection {
    /// Handles one inbound message of the socket opened as `attempt`.
    func inbound(_ message: WebSocketMessage, attempt: UInt64) {
        guard attempt == epoch, machine.state == .live else { return }
        switch framing.read(message) {
        case .response(let id, let status, let body):
            guard let request = pending.removeValue(forKey: id) else { return }
            switch request {
            // Only the answer to a ping counts: a late answer to something else proves nothing
            // about the path now.
            case .ping: handle(.pong)
            case .resume: resumed(status: status, body: body)
            case .send(let clientId): answered(clientId, status: status, body: body)
            }
        case .push(let item, let acknowledgement):
            if let item, !store(item) { return }
            if let acknowledgement { reply(acknowledgement) }
        case .other:
            break
        }
    }

    /// Asks for everything after the stored cursor, unless a resume is already running.
    func resume() {
        guard !resumeRunning, let cursor = try? store.cursor() else { return }
        resumeRunning = true
        request(.resume) { framing.resume(after: cursor, id: $0) }
    }

    private func resumed(status: Int, body: JSONValue?) {
        resumeRunning = false
        guard (200..<300).contains(status), let page = framing.page(inResumeResponse: body) else { return }
        for item in page.items where !store(item) { return }
        try? store.advanceCursor(to: page.cursor)
        if page.more { resume() }
    }

    /// Stores `item` once (the same id again is dropped) and reports it; a gap in its
    /// conversation's sequence numbers starts a resume, which fetches the missing items.
    /// - Returns: `false` when the store failed (the item is then not acknowledged, so the server
    ///   sends it again).
    private func store(_ item: IncomingItem) -> Bool {
        let outcome: InboxOutcome
        do { outcome = try store.receive(item) } catch { return false }
        switch outcome {
        case .duplicate: break
        case .accepted: eventSink.yield(.received(item))
        case .acceptedAfterGap:
            eventSink.yield(.received(item))
            resume()
        }
        return true
    }
}
