import Foundation
import Synchronization

/// Decoded images by key, least recently used first out, bounded by a total cost in bytes
/// (`width × height × 4` per image). Unlike `NSCache` it is strict LRU, and it runs on Linux.
public final class MemoryCache: Sendable {
    private struct Entry {
        var image: DecodedImage
        var older: ImageKey?
        var newer: ImageKey?
    }

    private struct State {
        var entries: [ImageKey: Entry] = [:]
        var oldest: ImageKey?
        var newest: ImageKey?
        var totalCost = 0
        var costLimit: Int
    }

    private let state: Mutex<State>

    /// Creates a cache holding at most `costLimit` bytes of bitmaps.
    public init(costLimit: Int = MemoryCache.defaultCostLimit) {
        state = Mutex(State(costLimit: max(0, costLimit)))
    }

    /// A quarter of physical memory, at most 512 MB.
    public static var defaultCostLimit: Int {
        let physical = ProcessInfo.processInfo.physicalMemory
        return Int(min(physical / 4, 512 * 1024 * 1024))
    }

    /// The bytes held now.
    public var totalCost: Int { state.withLock { $0.totalCost } }
    /// The number of images held.
    public var count: Int { state.withLock { $0.entries.count } }
    /// The limit in bytes.
    public var costLimit: Int { state.withLock { $0.costLimit } }
    /// Keys from least to most recently used.
    public var keysByAge: [ImageKey] {
        state.withLock { state in
            var keys: [ImageKey] = []
            var cursor = state.oldest
            while let key = cursor {
                keys.append(key)
                cursor = state.entries[key]?.newer
            }
            return keys
        }
    }

    /// The image for `key`, now the most recently used.
    public func image(for key: ImageKey) -> DecodedImage? {
        state.withLock { state in
            guard let entry = state.entries[key] else { return nil }
            Self.unlink(key, in: &state)
            Self.append(key, entry.image, in: &state)
            return entry.image
        }
    }

    /// Stores `image` as the most recently used, evicting the least recently used over the
    /// limit. An image costlier than the whole limit is not stored.
    public func insert(_ image: DecodedImage, for key: ImageKey) {
        state.withLock { state in
            if state.entries[key] != nil { Self.unlink(key, in: &state) }
            guard image.cost <= state.costLimit else { return }
            Self.append(key, image, in: &state)
            Self.trim(to: state.costLimit, in: &state)
        }
    }

    /// Evicts least recently used images until at most `cost` bytes remain (`0`: all), as on a
    /// memory warning.
    public func trim(toCost cost: Int) {
        state.withLock { Self.trim(to: max(0, cost), in: &$0) }
    }

    /// Removes everything.
    public func removeAll() { trim(toCost: 0) }

    private static func trim(to cost: Int, in state: inout State) {
        while state.totalCost > cost, let oldest = state.oldest { unlink(oldest, in: &state) }
    }

    private static func append(_ key: ImageKey, _ image: DecodedImage, in state: inout State) {
        state.entries[key] = Entry(image: image, older: state.newest, newer: nil)
        if let newest = state.newest { state.entries[newest]?.newer = key }
        state.newest = key
        if state.oldest == nil { state.oldest = key }
        state.totalCost += image.cost
    }

    private static func unlink(_ key: ImageKey, in state: inout State) {
        guard let entry = state.entries.removeValue(forKey: key) else { return }
        if let older = entry.older { state.entries[older]?.newer = entry.newer } else { state.oldest = entry.newer }
        if let newer = entry.newer { state.entries[newer]?.older = entry.older } else { state.newest = entry.older }
        state.totalCost -= entry.image.cost
    }
}
