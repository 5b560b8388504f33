import CourierCore
import CourierHTTPClient
import Foundation
import ImagePipeline

/// `courier images thumbnail URL|FILE --px N`: the image pipeline from the command line. A URL
/// goes through the loader's tiers (memory, the disk cache under the data directory, the
/// network); a file is read as it is, with no cache. The image is decoded straight to the box
/// (libjpeg's DCT scaling, libwebp's scaled decode) and written back as JPEG.
struct ImagesCommand {
    /// A URL (`http`, `https`) or a file's path.
    let source: String
    /// The square box the thumbnail fits in.
    let pixels: Int
    /// Where the JPEG goes (default `<name>-<px>.jpg` in the current directory).
    let output: String?
    /// The disk cache's folder, for URLs.
    let cacheDirectory: String

    func run() async throws {
        let isURL = source.hasPrefix("http://") || source.hasPrefix("https://")
        var configuration = ImageLoaderConfiguration()
        configuration.diskDirectory = isURL ? URL(fileURLWithPath: cacheDirectory, isDirectory: true) : nil
        let loader: ImageLoader
        let url: String
        if isURL {
            loader = try ImageLoader(configuration: configuration)
            url = source
        } else {
            guard let bytes = FileManager.default.contents(atPath: source) else {
                throw CommandError("cannot read \(source)")
            }
            loader = try ImageLoader(configuration: configuration, dataLoader: FileBytes(bytes: Array(bytes)))
            url = "file://" + source
        }
        let started = ContinuousClock.now
        let image = try await loader.image(for: ImageRequest(url: url, pixelSize: PixelSize(square: pixels)))
        let elapsed = ContinuousClock.now - started
        let jpeg = try ImageEncoder.jpeg(image)
        let path = output ?? Self.defaultOutput(for: source, pixels: pixels)
        guard FileManager.default.createFile(atPath: path, contents: Data(jpeg)) else {
            throw CommandError("cannot write \(path)")
        }
        let metrics = loader.metrics.snapshot
        let origin: String
        if !isURL {
            origin = "read \(metrics.bytesDownloaded) bytes from \(source)"
        } else if metrics.diskHits > 0 {
            origin = "disk cache hit in \(cacheDirectory), no request"
        } else if metrics.notModified > 0 {
            origin = "revalidated (304 Not Modified), cached copy used"
        } else {
            origin = "downloaded \(metrics.bytesDownloaded) bytes, kept in the disk cache"
        }
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        print(
            "\(image.sourceSize) → \(image.size) (decoded at \(image.decodedSize)) in "
                + String(format: "%.1f", milliseconds) + " ms; \(origin)")
        print("wrote \(path) (\(jpeg.count) bytes, JPEG)")
    }

    /// `photo.jpg` at 300 px: `photo-300.jpg`, in the current directory.
    static func defaultOutput(for source: String, pixels: Int) -> String {
        var name = source.split(separator: "?").first.map(String.init) ?? source
        name = name.split(separator: "/").last.map(String.init) ?? "image"
        if let dot = name.lastIndex(of: "."), dot != name.startIndex { name = String(name[..<dot]) }
        return "\(name.isEmpty ? "image" : name)-\(pixels).jpg"
    }
}

/// The network tier's seam answered with a file's bytes: a file goes through the same decode.
private struct FileBytes: ImageDataLoader {
    let bytes: [UInt8]

    func get(_ url: String, headers: [String: String]) async throws -> ImageDataResponse {
        ImageDataResponse(status: 200, headers: [:], body: bytes)
    }
}
