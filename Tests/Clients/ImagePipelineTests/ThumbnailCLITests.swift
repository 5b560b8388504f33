import CourierCore
import CourierTesting
import Foundation
import Testing

@testable import ImagePipeline

/// `courier images thumbnail URL|FILE --px N`, run as a new user would: the pipeline downloads,
/// decodes to the box and writes a JPEG; a second run is answered by the disk cache.
@Suite(.timeLimit(.minutes(2)))
struct ThumbnailCLITests {
    static func courier(_ arguments: [String], in directory: String) async throws -> ChildProcess.Outcome {
        let cli = try #require(builtExecutable(named: "courier"), "build courier first (swift build)")
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = directory
        environment["XDG_DATA_HOME"] = nil
        let confined = environment
        return try await offPool { try ChildProcess.run(cli, arguments, environment: confined, directory: directory) }
    }

    static func temporaryDirectory() throws -> String {
        let directory = NSTemporaryDirectory() + "thumbnail-cli-" + Identifier.uuid()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func aURLIsDownloadedOnceThenServedFromTheDiskCache() async throws {
        let server = try ImageServer()
        defer { server.stop() }
        server.serve("photo.jpg", ServedImage(body: Fixtures.jpeg, cacheControl: "max-age=3600"))
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }

        let first = try await Self.courier(
            ["images", "thumbnail", server.url("photo.jpg"), "--px", "300"], in: directory)
        #expect(first.status == 0, "\(first.errorOutput)")
        #expect(first.output.contains("1600x1200 → 300x225"), "\(first.output)")
        #expect(first.output.contains("downloaded \(Fixtures.jpeg.count) bytes"), "\(first.output)")
        let written = try #require(FileManager.default.contents(atPath: directory + "/photo-300.jpg"))
        let thumbnail = try JPEGDecoder().decode(Array(written), fitting: nil, limits: DecodingLimits())
        #expect(thumbnail.size == PixelSize(width: 300, height: 225))
        #expect(
            FileManager.default.fileExists(atPath: directory + "/.local/share/courier/images"),
            "the cache lives in the data directory")

        let second = try await Self.courier(
            ["images", "thumbnail", server.url("photo.jpg"), "--px", "300", "--out", "again.jpg"], in: directory)
        #expect(second.status == 0, "\(second.errorOutput)")
        #expect(second.output.contains("disk cache hit"), "\(second.output)")
        #expect(server.requests("photo.jpg") == 1, "the second run made no request")
        #expect(FileManager.default.fileExists(atPath: directory + "/again.jpg"))
    }

    @Test func aFileIsReadWithoutACacheAndAnythingElseIsAClearError() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(FileManager.default.createFile(atPath: directory + "/local.png", contents: Data(Fixtures.png)))
        let local = try await Self.courier(["images", "thumbnail", "local.png", "--px", "100"], in: directory)
        #expect(local.status == 0, "\(local.errorOutput)")
        #expect(local.output.contains("400x300 → 100x75"), "\(local.output)")
        #expect(local.output.contains("read \(Fixtures.png.count) bytes from local.png"), "\(local.output)")
        #expect(FileManager.default.fileExists(atPath: directory + "/local-100.jpg"))

        let missing = try await Self.courier(["images", "thumbnail", "nothing.jpg", "--px", "100"], in: directory)
        #expect(missing.status == 1)
        #expect(missing.errorOutput.contains("cannot read nothing.jpg"), "\(missing.errorOutput)")

        #expect(FileManager.default.createFile(atPath: directory + "/notes.txt", contents: Data("not an image".utf8)))
        let text = try await Self.courier(["images", "thumbnail", "notes.txt", "--px", "100"], in: directory)
        #expect(text.status == 1)
        #expect(text.errorOutput.contains("unsupported_format"), "\(text.errorOutput)")
    }
}
