import CourierCore
import CourierTesting
import Foundation
import Synchronization
import Testing

/// `Tests/peers/axolotl_peer.py`, an independent client on python-axolotl, driven one command a
/// line through its standard input; each command's answer is read from its standard output as
/// the JSON lines it prints, up to the one marked `"done": true`. Nothing here waits on a clock:
/// every step waits for the peer's next line.
final class AxolotlPeer: Sendable {
    let child: ChildProcess
    private let inbox = LineInbox()
    private let reader: Task<Void, Never>

    /// Starts the peer against `serverURL` with the project's Python (`COURIER_PYTHON` or `.venv`).
    init(serverURL: String) throws {
        let script = ProjectPaths.packageRoot.appendingPathComponent("Tests/peers/axolotl_peer.py").path
        child = try ChildProcess(
            ProjectPaths.python, [script, serverURL], input: .pipe, output: .pipe, errorOutput: .inherit)
        let output = child.output
        reader = Task.detached { [inbox] in
            _ = await runOffPool {
                var pending = ""
                // `availableData` returns what the pipe holds now; empty at the end of the stream.
                while let data = output?.availableData, !data.isEmpty {
                    pending += String(decoding: data, as: UTF8.self)
                    while let newline = pending.firstIndex(of: "\n") {
                        inbox.push(String(pending[..<newline]))
                        pending = String(pending[pending.index(after: newline)...])
                    }
                }
                inbox.finish()
            }
        }
    }

    /// Sends one command and returns every line it printed, the final `done` one last.
    /// - Throws: when the peer ended before it finished, or answered `{"event": "error"}`.
    @discardableResult
    func run(_ command: String) async throws -> [JSONValue] {
        try child.input?.write(contentsOf: Data((command + "\n").utf8))
        var lines: [JSONValue] = []
        while true {
            let line = try #require(await next(), "the peer ended during `\(command)`")
            lines.append(line)
            if line["event"]?.stringValue == "error" {
                Issue.record("the peer failed `\(command)`: \(line["error"]?.stringValue ?? "")")
                throw PeerFailure()
            }
            if line["done"]?.boolValue == true { return lines }
        }
    }

    /// Sends a command that runs on (the socket) without waiting for its end.
    func start(_ command: String) throws {
        try child.input?.write(contentsOf: Data((command + "\n").utf8))
    }

    /// The next line the peer prints, parsed; nil at the end of its output.
    func next() async -> JSONValue? {
        guard let text = await inbox.next() else { return nil }
        guard let json = try? JSONParser.parse(Array(text.utf8)) else {
            Issue.record("the peer printed a line that is not JSON: \(text)")
            return nil
        }
        return json
    }

    /// Reads lines up to and including the first whose `event` is `event`.
    func waitFor(_ event: String) async throws -> [JSONValue] {
        var lines: [JSONValue] = []
        while true {
            let line = try #require(await next(), "the peer ended before \(event)")
            lines.append(line)
            if line["event"]?.stringValue == "error" {
                Issue.record("the peer failed: \(line["error"]?.stringValue ?? "")")
                throw PeerFailure()
            }
            if line["event"]?.stringValue == event { return lines }
        }
    }

    /// Asks the peer to quit and waits for its exit status.
    func quit() async throws -> Int32 {
        try child.input?.write(contentsOf: Data("quit\n".utf8))
        let status = await runOffPool { [child] in child.wait() }
        await reader.value
        return status
    }

    struct PeerFailure: Error {}
}

/// Lines from a reading thread to one awaiting reader, in order.
final class LineInbox: Sendable {
    private struct State {
        var lines: [String] = []
        var waiter: CheckedContinuation<String?, Never>?
        var finished = false
    }

    private let state = Mutex(State())

    func push(_ line: String) {
        let waiter = state.withLock { state -> CheckedContinuation<String?, Never>? in
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.lines.append(line)
            return nil
        }
        waiter?.resume(returning: line)
    }

    func finish() {
        let waiter = state.withLock { state -> CheckedContinuation<String?, Never>? in
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }

    func next() async -> String? {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> String?? in
                if !state.lines.isEmpty { return .some(state.lines.removeFirst()) }
                if state.finished { return .some(nil) }
                state.waiter = continuation
                return .none
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
