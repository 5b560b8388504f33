import Synchronization
import CourierHTTP

/// Stored bytes per project and in all, kept in memory from the store's count at start and
/// updated after each commit, so a quota check costs no store read.
final class QuotaLedger: Sendable {
    private struct State {
        var perKey: [String: Int64]
        var total: Int64
    }

    private let state: Mutex<State>
    private let perKeyQuota: Int64?
    private let totalQuota: Int64?

    init(usage: [String: Int64], perKeyQuota: Int64?, totalQuota: Int64?) {
        state = Mutex(State(perKey: usage, total: usage.values.reduce(0, +)))
        self.perKeyQuota = perKeyQuota
        self.totalQuota = totalQuota
    }

    /// Refuses a batch of `bytes` for `writeKey` when it would pass a quota (`bytes` is only
    /// counted when a quota is set).
    /// - Throws: `HTTPError` (`quotaExceeded`).
    func check(writeKey: String, bytes batchBytes: @autoclosure () -> Int) throws(HTTPError) {
        guard perKeyQuota != nil || totalQuota != nil else { return }
        let bytes = batchBytes()
        let (used, total) = state.withLock { ($0.perKey[writeKey] ?? 0, $0.total) }
        if let perKeyQuota, used + Int64(bytes) > perKeyQuota {
            throw HTTPError(
                .quotaExceeded,
                "this project's storage quota (\(perKeyQuota) bytes) is used up; nothing was stored")
        }
        if let totalQuota, total + Int64(bytes) > totalQuota {
            throw HTTPError(.quotaExceeded, "the collector's storage quota is used up; nothing was stored")
        }
    }

    /// Adds what a commit stored.
    func add(writeKey: String, bytes: Int) {
        guard bytes > 0, perKeyQuota != nil || totalQuota != nil else { return }
        state.withLock {
            $0.perKey[writeKey, default: 0] += Int64(bytes)
            $0.total += Int64(bytes)
        }
    }
}
