import CourierHTTP
import CourierTesting
import Foundation
import Testing

/// The access log is written from a thread of its own: a descriptor nobody reads blocks only
/// that thread, lines past the pending limit are dropped and counted, and what is written comes
/// out whole and in order.
@Suite(.timeLimit(.minutes(1)))
struct AccessLogWriterTests {
    /// A pipe's two ends.
    private static func pipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        guard Foundation.pipe(&ends) == 0 else { throw RawSocket.Failure(description: "no pipe") }
        return (ends[0], ends[1])
    }

    /// Reads from `descriptor` until `lines` newlines have come.
    private static func readLines(_ descriptor: Int32, count lines: Int) -> [String] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while bytes.filter({ $0 == UInt8(ascii: "\n") }).count < lines {
            let n = read(descriptor, &buffer, buffer.count)
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test func linesArriveWholeAndInOrder() async throws {
        let (readEnd, writeEnd) = try Self.pipe()
        defer {
            close(readEnd)
            close(writeEnd)
        }
        let log = AccessLogWriter(fileDescriptor: writeEnd)
        defer { log.stop() }
        for index in 0..<1_000 { log.append("GET /item/\(index) 200") }
        let lines = try await offPool { Self.readLines(readEnd, count: 1_000) }
        #expect(lines.count == 1_000)
        #expect(lines.first == "GET /item/0 200")
        #expect(lines.last == "GET /item/999 200")
        #expect(log.droppedLines == 0)
    }

    /// Nobody reads the pipe: its buffer (64 KB) fills and the writer's thread blocks, but every
    /// `append` returns (the test would hang otherwise), and lines past the limit are counted as
    /// dropped. Once the pipe is read, the first lines come out whole.
    @Test func aDescriptorNobodyReadsNeverBlocksTheCaller() async throws {
        let (readEnd, writeEnd) = try Self.pipe()
        defer {
            close(readEnd)
            close(writeEnd)
        }
        let log = AccessLogWriter(fileDescriptor: writeEnd, maximumPendingBytes: 16_384)
        defer { log.stop() }
        let line = String(repeating: "x", count: 199)
        for _ in 0..<10_000 { log.append(line) }
        #expect(log.droppedLines > 0)
        let first = try await offPool { Self.readLines(readEnd, count: 1) }
        #expect(first.first == line)
    }
}
