import CourierCore

/// What `SyncClient.observe` reads for its consumer: waits for the collection's next change
/// signal, then brings its rows up to date, reading only the changed records when it can and
/// none at all for records a local write handed over.
///
/// Reads happen only when the consumer asks, so the rows handed out last are no longer shared
/// with a buffered copy when they are merged into (a whole collection is never copied per
/// commit), and an observer that is not being read costs no reads at all.
final class CollectionReader: @unchecked Sendable {
    // @unchecked: `rows` and `signals` are touched only in `next()`, which the stream calls for
    // one consumer, one call at a time (`AsyncStream(unfolding:)`).
    private let collection: String
    private let store: LocalStore
    private let take: @Sendable () -> CollectionSignals.Pending
    private var signals: AsyncStream<Void>.Iterator
    private var rows: [LocalRecord] = []

    init(
        collection: String, store: LocalStore, signals: AsyncStream<Void>,
        take: @escaping @Sendable () -> CollectionSignals.Pending
    ) {
        self.collection = collection
        self.store = store
        self.signals = signals.makeAsyncIterator()
        self.take = take
    }

    /// The rows after the next change, or `nil` when the observation has ended.
    func next() async -> [LocalRecord]? {
        while await signals.next() != nil {
            switch take() {
            case .all:
                guard let fresh = try? store.records(collection: collection) else { continue }
                rows = fresh
            case .records(let changed):
                // A signal whose changes an earlier read already took: nothing new to hand out.
                if changed.isEmpty { continue }
                var unread: Set<ExactText> = []
                var states: [ExactText: LocalRecord?] = [:]
                for (id, known) in changed {
                    switch known {
                    case .unread: unread.insert(id)
                    case .state(let record): states[id] = .some(record)
                    }
                }
                rows.apply(states)
                do {
                    try store.merge(unread, into: &rows, collection: collection)
                } catch {
                    // Read everything instead; a store that cannot be read skips the signal.
                    guard let fresh = try? store.records(collection: collection) else { continue }
                    rows = fresh
                }
            }
            return rows
        }
        return nil
    }
}
