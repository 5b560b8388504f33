import CourierCore
import CourierTesting
import Foundation
import Testing

@testable import CourierHTTP

/// The allocator settings a server executable makes, and the job that gives memory back.
@Suite(.timeLimit(.minutes(1)))
struct ServerMemoryTests {
    @Test func aThresholdBelowGlibcsDefaultOrAboveItsRangeIsRefused() {
        #expect(!ServerMemory.retainFreedMemory(upTo: 64 << 10))
        #expect(!ServerMemory.retainFreedMemory(upTo: -1))
        #expect(!ServerMemory.retainFreedMemory(upTo: Int(Int32.max) + 1))
    }

    #if os(Linux)
        /// With the threshold at 4 MB, 2 MB freed at the top of an arena stays with it (counted
        /// free by `mallinfo2`). In a child process, so that the test process's allocator keeps
        /// its defaults.
        @Test func freedMemoryBelowTheThresholdStaysWithTheArena() async {
            await #expect(processExitsWith: .success) {
                guard ServerMemory.retainFreedMemory() else { exit(1) }
                exit(ServerMemoryTests.bytesKeptAfterFreeing2MB() >= 3 << 19 ? 0 : 2)
            }
        }

        /// Allocates and touches 32 blocks of 64 KB, frees them newest first, and tells by how much
        /// the free bytes glibc holds grew with the frees.
        static func bytesKeptAfterFreeing2MB() -> Int {
            let blocks = (0..<32).map { _ in malloc(64 << 10)! }
            for block in blocks { memset(block, 1, 64 << 10) }
            let allocated = ServerMemory.freeBytesHeld ?? 0
            for block in blocks.reversed() { free(block) }
            return (ServerMemory.freeBytesHeld ?? 0) - allocated
        }
    #endif

    /// A repeating blocking job (`BackgroundJob.every`, whose timing ServerLifecycleTests covers):
    /// it gives memory back as soon as it starts.
    @Test func theReleaseJobGivesMemoryBackWhenItStarts() async {
        let counter = TickCounter()
        let job = ServerMemory.releasingFreeMemory(every: .seconds(60), on: ManualClock()) { counter.tick() }
        #expect(job.name == "server.memory-release")
        let running = Task { await job.run() }
        var ticks = counter.ticks.makeAsyncIterator()
        #expect(await ticks.next() == 1)
        running.cancel()
        await running.value
    }
}
