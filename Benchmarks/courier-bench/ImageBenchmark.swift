import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import ImagePipeline
import Synchronization

/// `courier-bench images`: 12-megapixel JPEGs to 300-pixel JPEG thumbnails per second and peak
/// memory, Courier's decoder (in a child process, two threads) beside Debian's `vipsthumbnail`
/// (its own threads) on the same files in the same run; then the pipeline's latency per tier.
struct ImageBenchmark {
    let runs: Int
    static let files = 16
    static let side = 300

    func run() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-bench-images-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let photo = Self.noisy(ImageEncoder.pattern(width: 4000, height: 3000))
        let jpeg = try ImageEncoder.jpeg(photo, quality: 85)
        let paths = (0..<Self.files).map { folder.appendingPathComponent("photo\($0).jpg").path }
        for path in paths { try Data(jpeg).write(to: URL(fileURLWithPath: path)) }
        print(
            "== images: \(Self.files) 4000×3000 JPEGs (\(jpeg.count / 1024) KB each) to \(Self.side) px, median of \(runs) runs =="
        )

        var vipsRates: [Double] = []
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            let outcome = try ChildProcess.run(
                "/usr/bin/vipsthumbnail", ["-s", "\(Self.side)", "-o", out.path + "/%s_vips.jpg"] + paths)
            guard outcome.status == 0 else { throw BenchError("vipsthumbnail failed: \(outcome.errorOutput)") }
            vipsRates.append(Double(Self.files) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9))
        }
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        let vipsPeak = Double(usage.ru_maxrss) / 1024  // kilobytes on Linux

        var ourRates: [Double] = []
        var ourPeaks: [Double] = []
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            let outcome = try ChildProcess.run(CommandLine.arguments[0], ["images-worker", out.path] + paths)
            guard outcome.status == 0, let peak = Double(outcome.output.trimmingCharacters(in: .whitespacesAndNewlines))
            else { throw BenchError("images-worker failed: \(outcome.errorOutput)") }
            ourRates.append(Double(Self.files) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9))
            ourPeaks.append(peak / 1024)
        }
        print(line("thumbnails/s (process start incl.)", median(ourRates), "/s", median(vipsRates), "vipsthumbnail"))
        print(line("peak RSS (lower is better)", median(ourPeaks), "MB", vipsPeak, "vipsthumbnail"))
        try tierLatencies(jpeg: jpeg, folder: folder)
    }

    /// Median latency of a memory hit, a disk hit (read + decode to 300 px) and a miss end to end
    /// over loopback from the project's HTTP server.
    private func tierLatencies(jpeg: [UInt8], folder: URL) throws {
        var router = Router()
        router.add("GET", "/images/{name}") { _ in
            HTTPResponse(status: 200, headers: [("Content-Type", "image/jpeg")], body: jpeg)
        }
        var http = HTTPServerConfiguration()
        http.port = 0
        let server = HTTPServer(configuration: http, router: router)
        try server.start()
        defer { server.stop(deadline: .seconds(1)) }
        var configuration = ImageLoaderConfiguration()
        configuration.diskDirectory = folder.appendingPathComponent("cache")
        let loader = try ImageLoader(configuration: configuration)
        let box = PixelSize(square: Self.side)
        let samples = 20 * runs
        var miss: [Double] = [], disk: [Double] = [], memory: [Double] = []
        for i in 0..<samples {
            let request = ImageRequest(url: "\(server.baseURL)/images/p\(i).jpg", pixelSize: box)
            miss.append(try time { _ = try await loader.image(for: request) })
            memory.append(try time { _ = try await loader.image(for: request) })
            loader.trimMemory(to: 0)
            disk.append(try time { _ = try await loader.image(for: request) })
        }
        let decoder = JPEGDecoder()
        var bare: [Double] = []
        for _ in 0..<samples {
            let start = DispatchTime.now().uptimeNanoseconds
            _ = try decoder.decode(jpeg, fitting: box, limits: DecodingLimits())
            bare.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1000)
        }
        print(line("memory hit latency", median(memory), "µs", median(disk), "disk hit"))
        print(line("disk hit latency", median(disk), "µs", median(bare), "bare decode to 300 px"))
        print(line("miss latency, loopback", median(miss), "µs", median(disk), "disk hit"))
    }

    private func time(_ body: @escaping @Sendable () async throws -> Void) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try runBlocking { try await body() }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1000
    }

    /// `image` with ±16 of pseudo-random noise per channel, so the JPEG is as large as a camera's
    /// (a few MB) rather than a smooth gradient's few hundred KB.
    static func noisy(_ image: DecodedImage) -> DecodedImage {
        var state: UInt32 = 0x9E37_79B9
        var pixels = image.pixels
        for i in pixels.indices where i % 4 != 3 {
            state = state &* 1_664_525 &+ 1_013_904_223
            pixels[i] = UInt8(clamping: Int(pixels[i]) + Int(state >> 27) - 16)
        }
        return DecodedImage(
            width: image.width, height: image.height, pixels: pixels, sourceSize: image.sourceSize,
            decodedSize: image.decodedSize)
    }

    /// The child side: thumbnails `paths` into `out` on every core, then prints its peak RSS (KB).
    static func worker(_ arguments: [String]) -> Int32 {
        guard let out = arguments.first else { return 64 }
        let paths = Array(arguments.dropFirst())
        let failures = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: paths.count) { i in
            do {
                guard let data = FileManager.default.contents(atPath: paths[i]) else { throw BenchError("unreadable") }
                let image = try JPEGDecoder().decode(
                    [UInt8](data), fitting: PixelSize(square: side), limits: DecodingLimits())
                let thumbnail = try ImageEncoder.jpeg(image, quality: 75)
                try Data(thumbnail).write(to: URL(fileURLWithPath: "\(out)/\(i)_courier.jpg"))
            } catch {
                failures.add(1, ordering: .relaxed)
            }
        }
        guard failures.load(ordering: .relaxed) == 0 else { return 1 }
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let row = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        print(row.split(separator: " ").dropFirst().first ?? "0")
        return 0
    }
}
