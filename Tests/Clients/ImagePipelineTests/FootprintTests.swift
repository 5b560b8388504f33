import CourierTesting
import Testing

@testable import ImagePipeline

@Suite("Memory footprint of downsampled loads", .timeLimit(.minutes(3)))
struct FootprintTests {
    @Test("100 4000×3000 JPEGs to 200 px: no bitmap over 500×375 exists, and the cache holds under 12 MB")
    func hundredLargeJPEGs() async throws {
        let server = try ImageServer()
        defer { server.stop() }
        let jpeg = try ImageEncoder.jpeg(DecoderTests.photo, quality: 70)
        for i in 0..<100 { server.serve("big\(i).jpg", ServedImage(body: jpeg)) }
        let loader = try makeLoader { $0.diskDirectory = nil }
        let images = try await withThrowingTaskGroup(of: DecodedImage.self) { group in
            for i in 0..<100 {
                group.addTask {
                    try await loader.image(
                        for: ImageRequest(url: server.url("big\(i).jpg"), pixelSize: PixelSize(square: 200)))
                }
            }
            return try await group.reduce(into: [DecodedImage]()) { $0.append($1) }
        }
        #expect(images.count == 100)
        // 4000×3000×4 = 48 MB per full decode; the largest bitmap any decode made is 1/8 of each side.
        let largest = images.map(\.decodedSize.area).max() ?? 0
        #expect(largest == 500 * 375)
        #expect(images.allSatisfy { $0.size == PixelSize(width: 200, height: 150) })
        #expect(loader.memory.count == 100)
        #expect(loader.memory.totalCost == 100 * 200 * 150 * 4)
        #expect(loader.memory.totalCost < 12 * 1024 * 1024)
        #expect(loader.metrics.snapshot.decodes == 100)
        #expect(loader.metrics.snapshot.downloads == 100)
    }
}
