/// How many events the next upload may take: the configured maximum, or fewer while a batch the
/// collector refused is being halved (413: too large; 400: unreadable). Halving goes on until
/// the halves are accepted or one event is left alone to be dropped, so one bad event never takes
/// good ones with it. Pure: the pipeline reports what happened, tests check the sizes.
package struct BatchSizer: Equatable {
    /// The configured `maximumBatchCount`.
    package let maximum: Int
    /// The most events the next upload takes.
    package private(set) var limit: Int
    /// Events at the head of the queue that were in a refused batch and are not yet resolved:
    /// while there are any, the limit stays small instead of sending them whole again.
    package private(set) var suspects = 0

    package init(maximum: Int) {
        self.maximum = max(1, maximum)
        limit = self.maximum
    }

    /// A batch of `count` events was refused whole: send its first half next.
    package mutating func refused(_ count: Int) {
        suspects = max(1, count)
        limit = max(1, count / 2)
    }

    /// `count` events left the head of the queue (delivered or dropped).
    package mutating func resolved(_ count: Int) {
        suspects = max(0, suspects - count)
        limit = suspects > 0 ? min(limit, suspects) : maximum
    }
}
