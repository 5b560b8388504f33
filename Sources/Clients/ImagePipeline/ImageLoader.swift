import CourierCore
import Dispatch
import Synchronization

/// Loads images through memory → disk → network, shrunk at decode to the requested pixel size.
///
/// One download per URL and one decode per key are in flight however many callers ask; a
/// caller whose task is cancelled leaves at once, and the work stops when its last caller has
/// left. Hits are promoted: a disk hit fills the memory cache, a download fills both.
///
/// ```swift
/// var configuration = ImageLoaderConfiguration()
/// configuration.maximumConcurrentDownloads = 4
/// let loader = try ImageLoader(configuration: configuration)
/// let thumbnail = try await loader.image(for: ImageRequest(url: url, pixelSize: PixelSize(square: 300)))
/// ```
public final class ImageLoader: Sendable {
    /// The decoded-image tier.
    public let memory: MemoryCache
    /// The encoded-bytes tier, if configured.
    public let disk: DiskCache?
    /// Hits per tier, downloads, decodes.
    public let metrics = ImagePipelineMetrics()
    let configuration: ImageLoaderConfiguration
    let dataLoader: any ImageDataLoader
    let clock: any Clock
    let decodes = Coalescer<ImageKey, DecodedImage>()
    let downloads = Coalescer<String, [UInt8]>()
    let downloadGate: PriorityGate<String>
    let decodeGate: PriorityGate<ImageKey>
    let sweepState = Mutex((bytesSinceSweep: 0, sweeping: false))

    /// Creates a loader.
    /// - Parameters:
    ///   - configuration: cache sizes, limits, decoder.
    ///   - dataLoader: the network tier (default: Courier's HTTP client).
    ///   - clock: wall time for freshness and disk ages.
    /// - Throws: `ImagePipelineError` (`disk`) when the disk cache's folder cannot be created.
    public init(
        configuration: ImageLoaderConfiguration = ImageLoaderConfiguration(),
        dataLoader: any ImageDataLoader = HTTPImageDataLoader(), clock: any Clock = SystemClock()
    ) throws(ImagePipelineError) {
        self.configuration = configuration
        self.dataLoader = dataLoader
        self.clock = clock
        memory = MemoryCache(costLimit: configuration.memoryCostLimit)
        disk = try configuration.diskDirectory.map { directory throws(ImagePipelineError) in
            try DiskCache(
                directory: directory, byteLimit: configuration.diskByteLimit, ageLimit: configuration.diskAgeLimit,
                clock: clock)
        }
        downloadGate = PriorityGate(limit: configuration.maximumConcurrentDownloads)
        decodeGate = PriorityGate(limit: configuration.maximumConcurrentDecodes)
    }

    /// The image for `request`, from the first tier that has it.
    /// - Throws: `ImagePipelineError`, or `CancellationError` when the calling task is cancelled.
    public func image(for request: ImageRequest) async throws -> DecodedImage {
        let key = request.key
        if let hit = cachedImage(for: request) { return hit }
        return try await decodes.value(for: key) { [self] in
            if let hit = memory.image(for: key) { return hit }
            let data = try await data(for: request)
            let image = try await decodeGate.run(key, priority: request.priority) {
                try await decode(data, fitting: request.pixelSize)
            }
            memory.insert(image, for: key)
            return image
        }
    }

    /// The image for `request` if the memory cache has it (counted as a memory hit).
    public func cachedImage(for request: ImageRequest) -> DecodedImage? {
        guard let hit = memory.image(for: request.key) else { return nil }
        metrics.record { $0.memoryHits += 1 }
        return hit
    }

    /// Starts loading `request` at low priority for a cell not yet visible; cancel the returned
    /// task when the cell is no longer coming.
    @discardableResult
    public func prefetch(_ request: ImageRequest) -> Task<Void, Never> {
        var low = request
        low.priority = .low
        return Task(priority: .low) { _ = try? await self.image(for: low) }
    }

    /// Changes the priority of `request`'s queued download and decode (a prefetched cell that
    /// scrolled into view goes first).
    public func setPriority(_ priority: ImagePriority, for request: ImageRequest) {
        downloadGate.reprioritize(request.url, to: priority)
        decodeGate.reprioritize(request.key, to: priority)
    }

    /// Empties the memory cache down to `fraction` of its limit (0: all), as on a memory warning.
    public func trimMemory(to fraction: Double = 0) {
        memory.trim(toCost: Int(Double(memory.costLimit) * max(0, min(1, fraction))))
    }

    /// Downloads and decodes running now, for tests.
    package var inFlight: (downloads: [String], decodes: [ImageKey]) { (downloads.runningKeys, decodes.runningKeys) }

    private func decode(_ data: [UInt8], fitting target: PixelSize?) async throws -> DecodedImage {
        let decoder = configuration.decoder
        let limits = configuration.decodingLimits
        let started = clock.uptimeNanoseconds
        // Decoding is CPU-bound for tens of milliseconds: on a Dispatch thread, not Swift's
        // cooperative pool; the decode gate bounds how many run.
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<DecodedImage, ImagePipelineError>, Never>) in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(
                    returning: Result { () throws(ImagePipelineError) in
                        try decoder.decode(data, fitting: target, limits: limits)
                    })
            }
        }
        let elapsed = Int(clock.uptimeNanoseconds &- started)
        metrics.record {
            $0.decodes += 1
            $0.decodeNanoseconds += elapsed
        }
        return try result.get()
    }
}
