import CourierTesting
import Foundation
import Testing

@testable import ImagePipeline

@Suite("Memory → disk → network, with revalidation", .timeLimit(.minutes(2)))
struct TierTests {
    let server: ImageServer
    let clock = ManualClock()
    let loader: ImageLoader

    init() throws {
        server = try ImageServer()
        loader = try makeLoader(clock: clock)
    }

    @Test(
        "Each format is downloaded, decoded to size and served again from memory, then disk",
        arguments: [
            ("p.jpg", "image/jpeg"), ("p.png", "image/png"), ("p.webp", "image/webp"),
        ])
    func tiersPromote(name: String, type: String) async throws {
        defer { server.stop() }
        let body = name.hasSuffix("jpg") ? Fixtures.jpeg : name.hasSuffix("png") ? Fixtures.png : Fixtures.webp
        server.serve(name, ServedImage(body: body, contentType: type))
        let request = ImageRequest(url: server.url(name), pixelSize: PixelSize(square: 120))
        let first = try await loader.image(for: request)
        #expect(first.size == PixelSize(width: 120, height: 90))
        #expect(loader.metrics.snapshot.downloads == 1)
        #expect(loader.metrics.snapshot.bytesDownloaded == body.count)
        #expect(try await loader.image(for: request) == first)
        #expect(loader.metrics.snapshot.memoryHits == 1)
        loader.trimMemory(to: 0)
        #expect(loader.memory.count == 0)
        #expect(try await loader.image(for: request) == first)
        #expect(loader.metrics.snapshot.diskHits == 1)
        // The disk hit was promoted to memory.
        #expect(loader.cachedImage(for: request) == first)
        #expect(server.requests(name) == 1)
    }

    @Test("A stale entry is revalidated with If-None-Match; 304 reuses the disk bytes")
    func revalidationNotModified() async throws {
        defer { server.stop() }
        server.serve("r.jpg", ServedImage(body: Fixtures.jpeg, etag: "\"v1\"", cacheControl: "max-age=60"))
        let request = ImageRequest(url: server.url("r.jpg"), pixelSize: PixelSize(square: 80))
        let first = try await loader.image(for: request)
        loader.trimMemory(to: 0)
        clock.advance(by: .seconds(30))
        _ = try await loader.image(for: request)
        #expect(server.requests("r.jpg") == 1, "fresh for 60 s: no request")
        loader.trimMemory(to: 0)
        clock.advance(by: .seconds(31))
        let again = try await loader.image(for: request)
        #expect(again == first)
        #expect(server.requests("r.jpg") == 2)
        #expect(server.conditionalRequests("r.jpg") == 1)
        #expect(loader.metrics.snapshot.notModified == 1)
        #expect(loader.metrics.snapshot.bytesDownloaded == Fixtures.jpeg.count)
        // The 304 renewed freshness: the next load within 60 s asks nobody.
        loader.trimMemory(to: 0)
        clock.advance(by: .seconds(59))
        _ = try await loader.image(for: request)
        #expect(server.requests("r.jpg") == 2)
    }

    @Test("no-cache revalidates every time; no-store never reaches the disk")
    func cacheControlDirectives() async throws {
        defer { server.stop() }
        server.serve("n.jpg", ServedImage(body: Fixtures.jpeg, etag: "\"n\"", cacheControl: "no-cache"))
        server.serve("s.jpg", ServedImage(body: Fixtures.jpeg, cacheControl: "no-store"))
        for _ in 0..<2 {
            loader.trimMemory(to: 0)
            _ = try await loader.image(for: ImageRequest(url: server.url("n.jpg"), pixelSize: PixelSize(square: 40)))
        }
        #expect(server.conditionalRequests("n.jpg") == 1)
        _ = try await loader.image(for: ImageRequest(url: server.url("s.jpg"), pixelSize: PixelSize(square: 40)))
        let disk = try #require(loader.disk)
        #expect(!FileManager.default.fileExists(atPath: disk.fileURL(for: server.url("s.jpg")).path))
    }

    @Test(
        "Bad answers are typed errors",
        arguments: [
            (
                "html", ServedImage(body: Array("<html>oops</html>".utf8), contentType: "text/html"),
                "wrong_content_type"
            ),
            ("empty", ServedImage(body: [], contentType: "image/jpeg"), "empty_data"),
            ("cut", ServedImage(body: Array(Fixtures.jpeg.prefix(Fixtures.jpeg.count / 3))), "truncated_image"),
            ("junk", ServedImage(body: Array(repeating: 0x42, count: 500)), "unsupported_format"),
            ("missing", nil, "bad_status"),
        ])
    func badAnswers(name: String, image: ServedImage?, code: String) async throws {
        defer { server.stop() }
        if let image { server.serve(name, image) }
        do {
            _ = try await loader.image(for: ImageRequest(url: server.url(name), pixelSize: PixelSize(square: 50)))
            Issue.record("\(name) loaded")
        } catch let error as ImagePipelineError {
            #expect(error.code.description == code, "\(error)")
        }
    }
}
