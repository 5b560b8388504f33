import CourierCore
import CourierHTTPClient
import Realtime
import Synchronization

/// Requests this device sends on its open delivery socket, as Signal's clients do: a
/// `{"type":"request","id":N,"verb":…,"path":…,"body":…}` frame, answered by the server with a
/// `response` frame of the same id. A send then costs a frame each way on a connection that is
/// already open, not an HTTP request.
///
/// A request the socket does not answer (it closed first, or could not take the frame) returns
/// `nil`, and the caller sends it over HTTP instead: the server stores one client message id
/// once, so a send that did reach it before the socket closed is not stored twice.
final class SocketRequests: Sendable {
    /// The server's answer: its status and JSON body (an error's fields at the top, as over HTTP).
    struct Answer: Sendable {
        let status: Int
        let body: JSONValue?
    }

    private struct State {
        var next: Int64 = 1
        var waiting: [Int64: CheckedContinuation<Answer?, Never>] = [:]
        var closed = false
    }

    private let socket: any RealtimeSocket
    private let state = Mutex(State())

    init(socket: any RealtimeSocket) { self.socket = socket }

    /// Sends one request and waits for its answer; `nil` when the socket closed first or the
    /// calling task is cancelled (the answer, if it comes, is then dropped).
    func send(_ verb: String, _ path: String, body: JSONValue) async -> Answer? {
        let id: Int64? = state.withLock { state in
            guard !state.closed else { return nil }
            defer { state.next += 1 }
            return state.next
        }
        guard let id else { return nil }
        let frame = JSONWriter.string([
            "type": "request", "id": .int(id), "verb": .string(verb), "path": .string(path), "body": body,
        ])
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // A cancellation that came first finds no waiter; this check then stops the wait.
                let waiting = state.withLock { state -> Bool in
                    guard !state.closed, !Task.isCancelled else { return false }
                    state.waiting[id] = continuation
                    return true
                }
                guard waiting else { return continuation.resume(returning: nil) }
                // Registered before the frame goes, so an answer cannot arrive before its waiter.
                Task { [socket] in
                    do { try await socket.send(.text(frame)) } catch { self.complete(id, with: nil) }
                }
            }
        } onCancel: {
            complete(id, with: nil)
        }
    }

    /// Takes `message` when it answers one of these requests; returns whether it did (the
    /// listener then does not treat it as a delivery).
    func receive(_ message: WebSocketMessage) -> Bool {
        // Deliveries are requests; only an answer carries the word `response` as a value.
        guard case .text(let text) = message, text.contains("\"response\""),
            let frame = try? JSONParser.parse(text), frame["type"]?.stringValue == "response",
            let id = frame["id"]?.intValue, let status = frame["status"]?.intValue
        else { return false }
        complete(id, with: Answer(status: Int(status), body: frame["body"]))
        return true
    }

    /// The socket closed: every request still waiting returns `nil`, and later ones at once.
    func close() {
        let waiting = state.withLock { state -> [CheckedContinuation<Answer?, Never>] in
            state.closed = true
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        for continuation in waiting { continuation.resume(returning: nil) }
    }

    private func complete(_ id: Int64, with answer: Answer?) {
        state.withLock { $0.waiting.removeValue(forKey: id) }?.resume(returning: answer)
    }
}
