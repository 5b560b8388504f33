import Realtime

/// `/status` in words a chat user reads: where the delivery socket is and what happens next.
enum ChatStatus {
    /// One line for the connection's state, or for no connection (after `/offline`).
    /// - Parameters:
    ///   - state: the delivery connection's state; `nil` when the user went offline.
    ///   - openedCount: how many sockets were opened so far.
    static func line(_ state: ConnectionState?, openedCount: Int) -> String {
        guard let state else { return "offline (you said /offline; /online reconnects)" }
        switch state {
        case .live:
            return openedCount > 1 ? "connected (reconnected \(openedCount - 1) times)" : "connected"
        case .connecting(let attempt):
            return attempt == 0 ? "connecting" : "connecting (attempt \(attempt + 1))"
        case .waiting(let attempt, let delay):
            // The machine counts from 0; people count retries from 1.
            return "not connected: connecting again in \(seconds(delay)) s (retry \(attempt + 1))"
        case .idle:
            return "not connected (waiting for the network)"
        case .suspended:
            return "paused (in the background)"
        }
    }

    /// Whole seconds, rounded up, so a 0.3 s wait does not read as "0 s".
    private static func seconds(_ delay: Duration) -> Int64 {
        let (whole, fraction) = delay.components
        return fraction > 0 ? whole + 1 : whole
    }
}
