/// The sends of one delivery socket that are queued and not yet answered (used by its receive
/// loop only): at most `limit` at once, so a client that sends without waiting is read no faster
/// than its sends are stored.
final class SocketRequestWindow {
    /// The most answers one socket waits for at once.
    static let limit = 16
    private var running: [Task<Void, Never>] = []

    /// Adds a request's task; when the window is full, waits for the oldest to be answered.
    func admit(_ task: Task<Void, Never>) async {
        running.append(task)
        if running.count >= Self.limit { await running.removeFirst().value }
    }

    /// Waits until every request admitted has been answered (or failed to be).
    func drain() async {
        for task in running { await task.value }
        running = []
    }
}
