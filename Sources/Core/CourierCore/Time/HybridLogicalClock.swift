import Synchronization

/// A hybrid logical clock timestamp (Kulkarni et al., 2014): the largest physical time seen in
/// milliseconds, a logical counter that orders events within one millisecond (or while the wall
/// clock lags behind a time already seen), and the node that made it, which breaks ties.
///
/// Timestamps compare by `(physical, logical, node)`; their `description` is a fixed-width text
/// that sorts the same way, so it can be stored and compared as a string.
public struct HLCTimestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Milliseconds since 1970: the largest wall time this node has seen, its own or a peer's.
    public let physical: Int64
    /// Events at the same `physical` value, in order.
    public let logical: UInt32
    /// The node that made the timestamp; breaks ties between nodes.
    public let node: String

    /// Creates a timestamp from its parts.
    public init(physical: Int64, logical: UInt32, node: String) {
        self.physical = physical
        self.logical = logical
        self.node = node
    }

    /// Parses `description`'s form: `PPPPPPPPPPPPPPP-LLLLLLLLLL-node`; `nil` if it is not one.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].utf8.count == 15, parts[1].utf8.count == 10,
            let physical = Int64(parts[0]), physical >= 0, let logical = UInt32(parts[1]), !parts[2].isEmpty
        else { return nil }
        self.init(physical: physical, logical: logical, node: String(parts[2]))
    }

    /// Zero-padded physical and logical parts, then the node: sorts as the timestamps compare.
    /// Written digit by digit into one string (every local write makes one, so no intermediate
    /// strings); a physical time outside 15 digits keeps the padded general form.
    public var description: String {
        guard physical >= 0, physical < 1_000_000_000_000_000 else {
            let p = String(physical)
            let l = String(logical)
            return String(repeating: "0", count: max(0, 15 - p.count)) + p + "-"
                + String(repeating: "0", count: max(0, 10 - l.count)) + l + "-" + node
        }
        var node = node
        return node.withUTF8 { nodeBytes in
            String(unsafeUninitializedCapacity: 27 + nodeBytes.count) { buffer in
                var value = UInt64(physical)
                for index in stride(from: 14, through: 0, by: -1) {
                    buffer[index] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
                buffer[15] = UInt8(ascii: "-")
                var counter = logical
                for index in stride(from: 25, through: 16, by: -1) {
                    buffer[index] = UInt8(ascii: "0") + UInt8(counter % 10)
                    counter /= 10
                }
                buffer[26] = UInt8(ascii: "-")
                for (offset, byte) in nodeBytes.enumerated() { buffer[27 + offset] = byte }
                return 27 + nodeBytes.count
            }
        }
    }

    /// Orders by physical time, then the logical counter, then the node.
    public static func < (a: HLCTimestamp, b: HLCTimestamp) -> Bool {
        (a.physical, a.logical, a.node) < (b.physical, b.logical, b.node)
    }
}

/// A hybrid logical clock: timestamps that never go backwards, even when the wall clock does, and
/// that stay close to wall time. Order events by it, never by device time (which is a display hint).
///
/// ```swift
/// let hlc = HybridLogicalClock(node: deviceID, clock: SystemClock())
/// let stamp = hlc.now()            // a local event
/// hlc.receive(remoteStamp)          // a peer's event: later local stamps sort after it
/// ```
public final class HybridLogicalClock: Sendable {
    private let clock: any Clock
    private let last: Mutex<HLCTimestamp>

    /// The node's id, in every timestamp it makes.
    public let node: String

    /// Creates a clock for `node` reading wall time from `clock`.
    /// - Parameter after: the last timestamp this node issued before a restart, so stamps made
    ///   after it sort later even if the wall clock went back while the node was down.
    public init(node: String, clock: any Clock, after: HLCTimestamp? = nil) {
        self.node = node
        self.clock = clock
        last = Mutex(
            after.map { HLCTimestamp(physical: $0.physical, logical: $0.logical, node: node) }
                ?? HLCTimestamp(physical: 0, logical: 0, node: node))
    }

    /// A timestamp for a local event: later than every timestamp issued or received before.
    public func now() -> HLCTimestamp {
        let wall = clock.nowMilliseconds
        return last.withLock { last in
            let next =
                wall > last.physical
                ? HLCTimestamp(physical: wall, logical: 0, node: node)
                : Self.bumped(last, node: node)
            last = next
            return next
        }
    }

    /// Merges a peer's timestamp, so the next local timestamp sorts after it; returns the
    /// timestamp of the receive event.
    @discardableResult
    public func receive(_ remote: HLCTimestamp) -> HLCTimestamp {
        let wall = clock.nowMilliseconds
        return last.withLock { last in
            let physical = max(wall, last.physical, remote.physical)
            var logical: UInt64 = 0
            if physical == last.physical { logical = max(logical, UInt64(last.logical) + 1) }
            if physical == remote.physical { logical = max(logical, UInt64(remote.logical) + 1) }
            let next =
                logical > UInt64(UInt32.max)
                ? HLCTimestamp(physical: physical + 1, logical: 0, node: node)
                : HLCTimestamp(physical: physical, logical: UInt32(logical), node: node)
            last = next
            return next
        }
    }

    /// The next timestamp after `stamp`; when the counter would wrap, time moves on by 1 ms.
    private static func bumped(_ stamp: HLCTimestamp, node: String) -> HLCTimestamp {
        stamp.logical == UInt32.max
            ? HLCTimestamp(physical: stamp.physical + 1, logical: 0, node: node)
            : HLCTimestamp(physical: stamp.physical, logical: stamp.logical + 1, node: node)
    }
}
