import CourierCore
import Foundation
import Synchronization

/// Encoded image bytes in files named by the SHA-256 of the URL, bounded by a byte cap and an
/// age limit. Reads and writes stamp a file's modification time with the clock's time, so the
/// sweep removes the least recently used first.
///
/// Every size of one URL shares one entry: the bytes are the server's, shrinking happens at decode.
public final class DiskCache: Sendable {
    /// The folder that holds the files.
    public let directory: URL
    /// The most bytes kept after a sweep.
    public let byteLimit: Int
    /// Entries not used for longer are removed by a sweep.
    public let ageLimit: Duration
    private let clock: any Clock

    /// Creates the cache in `directory` (created if missing; excluded from backups on Apple
    /// platforms).
    /// - Throws: `ImagePipelineError` (`disk`) when the folder cannot be created.
    public init(directory: URL, byteLimit: Int, ageLimit: Duration, clock: any Clock) throws(ImagePipelineError) {
        self.directory = directory
        self.byteLimit = byteLimit
        self.ageLimit = ageLimit
        self.clock = clock
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw ImagePipelineError(.disk, "cannot create \(directory.path)", underlying: error)
        }
        #if canImport(Darwin)
            var values = URLResourceValues()
            values.isExcludedFromBackup = true
            var folder = directory
            try? folder.setResourceValues(values)
        #endif
    }

    /// `Caches/CourierImages` (`~/.cache/CourierImages` on Linux): never a backed-up folder.
    public static var defaultDirectory: URL {
        let caches =
            FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first
            ?? FileManager.default.temporaryDirectory
        return caches.appendingPathComponent("CourierImages", isDirectory: true)
    }

    /// The file that holds `url`'s entry.
    public func fileURL(for url: String) -> URL { directory.appendingPathComponent(SHA256.hex(url)) }

    /// The entry for `url`, now the most recently used; `nil` when absent or damaged.
    public func entry(for url: String) -> DiskEntry? {
        let file = fileURL(for: url)
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        guard let entry = DiskEntry(decoding: [UInt8](data)) else {
            try? FileManager.default.removeItem(at: file)
            return nil
        }
        touch(file)
        return entry
    }

    /// Writes `entry` for `url`, replacing any earlier one atomically.
    /// - Throws: `ImagePipelineError` (`disk`).
    public func store(_ entry: DiskEntry, for url: String) throws(ImagePipelineError) {
        let file = fileURL(for: url)
        do {
            try Data(entry.encoded()).write(to: file, options: .atomic)
        } catch {
            throw ImagePipelineError(.disk, "cannot write \(file.lastPathComponent)", underlying: error)
        }
        touch(file)
    }

    /// Removes `url`'s entry.
    public func remove(_ url: String) { try? FileManager.default.removeItem(at: fileURL(for: url)) }

    /// Removes entries unused for longer than `ageLimit`, then the least recently used until at
    /// most `byteLimit` bytes remain. Slow (it lists the folder): run it off the caller's path.
    /// - Returns: the file names removed, oldest first.
    @discardableResult
    public func sweep() -> [String] {
        let keys: [URLResourceKey] = [.contentModificationDateKey, .fileSizeKey]
        guard
            let files = try? FileManager.default.contentsOfDirectory(
                at: directory, includingPropertiesForKeys: keys)
        else { return [] }
        var entries: [(file: URL, used: Date, size: Int)] = files.compactMap { file in
            guard let values = try? file.resourceValues(forKeys: Set(keys)), let used = values.contentModificationDate
            else { return nil }
            return (file, used, values.fileSize ?? 0)
        }
        entries.sort { $0.used < $1.used }
        let oldestAllowed = clock.now.addingTimeInterval(-Double(ageLimit.components.seconds))
        var total = entries.reduce(0) { $0 + $1.size }
        var removed: [String] = []
        for entry in entries where entry.used < oldestAllowed || total > byteLimit {
            guard (try? FileManager.default.removeItem(at: entry.file)) != nil else { continue }
            total -= entry.size
            removed.append(entry.file.lastPathComponent)
        }
        return removed
    }

    /// The bytes of all entries.
    public var totalBytes: Int {
        let files =
            (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: [.fileSizeKey]))
            ?? []
        return files.reduce(0) { $0 + ((try? $1.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0) }
    }

    private func touch(_ file: URL) {
        try? FileManager.default.setAttributes([.modificationDate: clock.now], ofItemAtPath: file.path)
    }
}
