import CourierTesting
import Foundation
import Testing

@testable import ImagePipeline

@Suite("One download and one decode per key in flight", .timeLimit(.minutes(2)))
struct CoalescingTests {
    let server: ImageServer
    let loader: ImageLoader

    init() throws {
        server = try ImageServer()
        loader = try makeLoader()
    }

    @Test("100 concurrent requests for one key: one download, one decode, 100 images")
    func hundredRequestsOneDownload() async throws {
        defer { server.stop() }
        let gate = Gate()
        server.serve("a.jpg", ServedImage(body: Fixtures.jpeg, gate: gate))
        let request = ImageRequest(url: server.url("a.jpg"), pixelSize: PixelSize(square: 300))
        let sizes = try await withThrowingTaskGroup(of: PixelSize.self) { group in
            for _ in 0..<100 { group.addTask { try await loader.image(for: request).size } }
            #expect(await poll { loader.decodes.waiterCount(for: request.key) == 100 })
            #expect(await poll { gate.waiting == 1 })
            gate.open()
            return try await group.reduce(into: [PixelSize]()) { $0.append($1) }
        }
        #expect(sizes.count == 100)
        #expect(Set(sizes) == [PixelSize(width: 300, height: 225)])
        #expect(server.requests("a.jpg") == 1)
        #expect(loader.metrics.snapshot.downloads == 1)
        #expect(loader.metrics.snapshot.decodes == 1)
    }

    @Test("Two pixel sizes of one URL share one download and one disk entry, and decode twice")
    func sizesShareOneDownload() async throws {
        defer { server.stop() }
        let gate = Gate()
        server.serve("b.jpg", ServedImage(body: Fixtures.jpeg, gate: gate))
        let url = server.url("b.jpg")
        async let small = loader.image(for: ImageRequest(url: url, pixelSize: PixelSize(square: 100)))
        async let large = loader.image(for: ImageRequest(url: url, pixelSize: PixelSize(square: 400)))
        #expect(await poll { loader.downloads.waiterCount(for: url) == 2 })
        gate.open()
        let (a, b) = try await (small, large)
        #expect(a.size == PixelSize(width: 100, height: 75))
        #expect(b.size == PixelSize(width: 400, height: 300))
        #expect(server.requests("b.jpg") == 1)
        #expect(loader.metrics.snapshot.decodes == 2)
        let disk = try #require(loader.disk)
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.directory.path).count == 1)
        // A third size comes from the disk entry, without asking the server.
        let third = try await loader.image(for: ImageRequest(url: url, pixelSize: PixelSize(square: 50)))
        #expect(third.size == PixelSize(width: 50, height: 38))
        #expect(server.requests("b.jpg") == 1)
        #expect(loader.metrics.snapshot.diskHits == 1)
    }

    @Test("The download is cancelled only when its last waiter leaves")
    func cancellationAtTheLastObserver() async throws {
        defer { server.stop() }
        let gate = Gate()
        defer { gate.open() }
        server.serve("c.jpg", ServedImage(body: Fixtures.jpeg, gate: gate))
        let request = ImageRequest(url: server.url("c.jpg"), pixelSize: PixelSize(square: 300))
        let waiters = (0..<3).map { _ in Task { try await loader.image(for: request) } }
        #expect(await poll { loader.decodes.waiterCount(for: request.key) == 3 && gate.waiting == 1 })
        waiters[0].cancel()
        waiters[1].cancel()
        for waiter in waiters[0..<2] {
            await #expect(throws: CancellationError.self) { try await waiter.value }
        }
        // One observer is left: the download goes on.
        #expect(loader.inFlight.downloads == [request.url])
        #expect(loader.metrics.snapshot.downloadsCancelled == 0)
        waiters[2].cancel()
        await #expect(throws: CancellationError.self) { try await waiters[2].value }
        #expect(await poll { loader.inFlight.downloads.isEmpty && loader.inFlight.decodes.isEmpty })
        #expect(await poll { loader.metrics.snapshot.downloadsCancelled == 1 })
        #expect(loader.metrics.snapshot.decodes == 0)
    }

    @Test("A reused slot never shows the earlier request's late image")
    func wrongImageAfterReuse() async throws {
        defer { server.stop() }
        let gate = Gate()
        server.serve("old.png", ServedImage(body: Fixtures.png, contentType: "image/png", gate: gate))
        server.serve("new.webp", ServedImage(body: Fixtures.webp, contentType: "image/webp"))
        let slot = ImageSlot(loader: loader)
        let old = Task { await slot.load(ImageRequest(url: server.url("old.png"), pixelSize: PixelSize(square: 64))) }
        #expect(await poll { gate.waiting == 1 })
        // The cell is reused for another image, which arrives first.
        let new = await slot.load(ImageRequest(url: server.url("new.webp"), pixelSize: PixelSize(square: 32)))
        guard case .current(let image) = new else {
            Issue.record("expected the new image, got \(new)")
            return
        }
        #expect(image.size == PixelSize(width: 32, height: 24))
        gate.open()
        guard case .superseded = await old.value else {
            Issue.record("the earlier request was delivered after reuse")
            return
        }
    }
}
