import Foundation
import Synchronization

/// Cuts off request bodies that are still arriving at their deadline.
///
/// civetweb's `mg_read` returns only when its whole buffer is filled, and its own timeout
/// restarts with every byte, so a client sending one byte every two seconds would hold a worker
/// for as long as it likes. The watchdog finds such a connection's socket (by its two addresses)
/// and shuts its reading side: the blocked read returns, and the request is answered 408.
final class BodyReadWatchdog: Sendable {
    /// A connection whose body is being read.
    struct Connection: Sendable {
        let serverPort: Int
        let remoteAddress: String
        let remotePort: Int
    }

    private struct Entry {
        let connection: Connection
        let deadline: UInt64
        var cut = false
    }

    private struct State {
        var entries: [Int: Entry] = [:]
        var nextID = 0
        var running = false
        var stopped = false
    }

    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)

    /// Watches `connection` until `finish(_:)`; past `deadline` (uptime nanoseconds) its reading
    /// side is shut.
    /// - Returns: a ticket for `finish(_:)`.
    func watch(_ connection: Connection, deadline: UInt64) -> Int {
        let (id, start) = state.withLock { state -> (Int, Bool) in
            let id = state.nextID
            state.nextID += 1
            state.entries[id] = Entry(connection: connection, deadline: deadline)
            let start = !state.running && !state.stopped
            state.running = true
            return (id, start)
        }
        if start {
            let thread = Thread { [self] in run() }
            thread.name = "courier.http.body-watchdog"
            thread.start()
        }
        return id
    }

    /// Ends the watchdog's thread (after the server has stopped).
    func stop() {
        state.withLock { $0.stopped = true }
        wake.signal()
    }

    /// Stops watching; returns whether the connection was cut.
    func finish(_ ticket: Int) -> Bool {
        state.withLock { $0.entries.removeValue(forKey: ticket)?.cut ?? false }
    }

    private func run() {
        while true {
            _ = wake.wait(timeout: .now() + .milliseconds(250))
            let now = DispatchTime.now().uptimeNanoseconds
            // Cut under the lock: the worker reading that body cannot finish (and let the socket
            // be reused for another request) while its connection is being looked up.
            let stopped = state.withLock { state -> Bool in
                for (id, entry) in state.entries where !entry.cut && entry.deadline <= now {
                    ConnectionSockets.shutDownReading(entry.connection)
                    state.entries[id]?.cut = true
                }
                return state.stopped
            }
            if stopped { return }
        }
    }
}
