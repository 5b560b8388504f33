import CourierCore
import CourierTesting
import Foundation
import Synchronization
import Testing

@testable import ImagePipeline

@Suite("Cache tiers, keys and queues")
struct CacheTests {
    static func image(_ side: Int) -> DecodedImage {
        ImageEncoder.pattern(width: side, height: side)
    }

    @Test("The memory cache keeps its cost limit (w×h×4) and evicts the least recently used")
    func memoryCostLimit() {
        let cache = MemoryCache(costLimit: 3 * 10 * 10 * 4)
        let keys = (0..<4).map { ImageKey(url: "u\($0)", pixelSize: PixelSize(square: 10), transformID: "") }
        for key in keys.prefix(3) { cache.insert(Self.image(10), for: key) }
        #expect(cache.totalCost == 1200)
        _ = cache.image(for: keys[0])
        cache.insert(Self.image(10), for: keys[3])
        #expect(cache.keysByAge == [keys[2], keys[0], keys[3]])
        #expect(cache.totalCost <= cache.costLimit)
        // An image costlier than the whole limit is not kept, and evicts nothing.
        cache.insert(Self.image(20), for: ImageKey(url: "big", pixelSize: nil, transformID: ""))
        #expect(cache.count == 3)
        cache.trim(toCost: 400)
        #expect(cache.keysByAge == [keys[3]])
    }

    @Test("Disk entries are swept oldest-used first over the byte cap, and all past the age limit")
    func diskEvictionOrderAndAge() throws {
        let clock = ManualClock()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-disk-\(Identifier.uuid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let entry = DiskEntry(data: Array(repeating: 7, count: 1000), freshUntilMilliseconds: 0)
        let size = entry.encoded().count
        let disk = try DiskCache(directory: folder, byteLimit: 2 * size, ageLimit: .seconds(3600), clock: clock)
        for url in ["a", "b", "c"] {
            try disk.store(entry, for: url)
            clock.advance(by: .seconds(60))
        }
        #expect(disk.entry(for: "a") == entry)  // a is now the most recently used
        clock.advance(by: .seconds(60))
        #expect(disk.sweep() == [SHA256.hex("b")])
        #expect(disk.entry(for: "b") == nil)
        clock.advance(by: .seconds(1800))
        #expect(disk.entry(for: "c") != nil)
        clock.advance(by: .seconds(1801))
        // a was last used 3661 s ago (over the hour), c 1801 s ago.
        #expect(disk.sweep() == [SHA256.hex("a")])
        #expect(disk.entry(for: "c") != nil)
    }

    @Test("Disk file names are the SHA-256 of the URL; a damaged file reads as absent")
    func diskNames() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-disk-\(Identifier.uuid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let disk = try DiskCache(directory: folder, byteLimit: 1 << 20, ageLimit: .seconds(60), clock: ManualClock())
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(disk.fileURL(for: "abc").lastPathComponent == SHA256.hex("abc"))
        try Data([1, 2, 3]).write(to: disk.fileURL(for: "abc"))
        #expect(disk.entry(for: "abc") == nil)
    }

    @Test("Keys are URL + pixel size + transform, with a process-independent description")
    func keys() {
        let a = ImageRequest(url: "http://x/a.jpg", pixelSize: PixelSize(square: 300)).key
        let b = ImageRequest(url: "http://x/a.jpg", pixelSize: PixelSize(square: 200)).key
        let c = ImageRequest(url: "http://x/a.jpg", pixelSize: PixelSize(square: 300), transformID: "round").key
        #expect(Set([a, b, c]).count == 3)
        #expect(a.description == "http://x/a.jpg @300x300")
        #expect(c.description == "http://x/a.jpg @300x300 #round")
    }

    @Test(
        "Cache-Control directives",
        arguments: [
            ("public, max-age=86400", CacheControl(maxAge: 86400)), ("no-cache", CacheControl(noCache: true)),
            ("No-Store, max-age=5", CacheControl(maxAge: 5, noStore: true)), ("max-age=oops", CacheControl(nil)),
        ])
    func cacheControl(header: String, expected: CacheControl) {
        #expect(CacheControl(header) == expected)
    }
}

extension CacheControl {
    init(maxAge: Int? = nil, noCache: Bool = false, noStore: Bool = false) {
        self.init(nil)
        self.maxAge = maxAge
        self.noCache = noCache
        self.noStore = noStore
    }
}

@Suite("Download and decode queues", .timeLimit(.minutes(1)))
struct PriorityGateTests {
    @Test("Waiters go highest priority first; a queued waiter's priority can be raised")
    func reprioritize() async throws {
        let gate = PriorityGate<String>(limit: 1)
        let order = OrderLog()
        let holder = Gate()
        let first = Task { try await gate.run("held", priority: .normal) { await holder.wait() } }
        #expect(await poll { holder.waiting == 1 })
        var tasks: [Task<Void, any Error>] = []
        for (name, priority) in [("prefetch-1", ImagePriority.low), ("prefetch-2", .low), ("visible", .normal)] {
            tasks.append(Task { try await gate.run(name, priority: priority) { order.append(name) } })
            #expect(await poll { gate.queuedKeys.contains(name) })
        }
        #expect(gate.queuedKeys == ["visible", "prefetch-1", "prefetch-2"])
        gate.reprioritize("prefetch-2", to: .high)
        #expect(gate.queuedKeys == ["prefetch-2", "visible", "prefetch-1"])
        holder.open()
        try await first.value
        for task in tasks { try await task.value }
        #expect(order.names == ["prefetch-2", "visible", "prefetch-1"])
    }

    @Test("A cancelled waiter leaves the queue")
    func cancelWhileQueued() async throws {
        let gate = PriorityGate<String>(limit: 1)
        let holder = Gate()
        let first = Task { try await gate.run("held", priority: .normal) { await holder.wait() } }
        #expect(await poll { holder.waiting == 1 })
        let queued = Task { try await gate.run("prefetch", priority: .low) {} }
        #expect(await poll { gate.queuedKeys == ["prefetch"] })
        queued.cancel()
        await #expect(throws: CancellationError.self) { try await queued.value }
        #expect(gate.queuedKeys.isEmpty)
        holder.open()
        try await first.value
    }
}

final class OrderLog: Sendable {
    private let state = Mutex<[String]>([])
    var names: [String] { state.withLock { $0 } }
    func append(_ name: String) { state.withLock { $0.append(name) } }
}
