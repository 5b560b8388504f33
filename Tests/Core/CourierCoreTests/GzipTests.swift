import CourierCore
import Testing

struct GzipTests {
    @Test func roundTrips() throws {
        let text = Array(String(repeating: "{\"event\":\"Signed Up\"},", count: 500).utf8)
        let compressed = try Gzip.compress(text)
        #expect(Gzip.isGzip(compressed))
        #expect(compressed.count < text.count / 5)
        #expect(try Gzip.decompress(compressed, limit: 1 << 20) == text)
    }

    @Test func zipBombIsRefusedNotExpanded() throws {
        let bomb = try Gzip.compress([UInt8](repeating: 0, count: 50 << 20))
        #expect(bomb.count < 100_000)
        do {
            _ = try Gzip.decompress(bomb, limit: 1 << 20)
            Issue.record("a zip bomb must be refused")
        } catch {
            #expect(error.reason == .tooLarge)
        }
    }

    @Test func concatenatedMembersDecodeAsOneStream() throws {
        let joined = try Gzip.compress(Array("first ".utf8)) + Gzip.compress(Array("second".utf8))
        #expect(try Gzip.decompress(joined, limit: 1024) == Array("first second".utf8))
    }

    @Test func corruptAndTruncatedDataAreErrors() throws {
        let good = try Gzip.compress(Array("hello hello hello".utf8))
        var corrupt = good
        corrupt[12] ^= 0xFF
        for data in [corrupt, Array(good.prefix(good.count / 2)), [0x1F, 0x8B, 1, 2, 3], Array("plain".utf8)] {
            #expect(throws: Gzip.Failure.self) { try Gzip.decompress(data, limit: 1 << 20) }
        }
    }
}
