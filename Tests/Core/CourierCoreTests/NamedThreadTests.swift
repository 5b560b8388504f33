import CourierCore
import Foundation
import Synchronization
import Testing

/// Threads started by `NamedThread` carry their name in the kernel, where `ps -L`, `top -H`
/// and `perf` read it, every time (Foundation's own name was lost about one start in four).
struct NamedThreadTests {
    @Test func everyThreadCarriesItsNameInTheKernel() async {
        let names = Mutex<[String]>([])
        let (done, finished) = AsyncStream<Void>.makeStream()
        let count = 64
        for index in 0..<count {
            NamedThread.start("named-\(index)") {
                let comm = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
                let all = names.withLock { names -> Int in
                    names.append(comm.trimmingCharacters(in: .newlines))
                    return names.count
                }
                if all == count { finished.finish() }
            }
        }
        for await _ in done {}
        #expect(Set(names.withLock { $0 }) == Set((0..<count).map { "named-\($0)" }))
    }

    @Test func aLongNameIsCutToWhatTheKernelKeeps() async {
        let (seen, report) = AsyncStream<String>.makeStream()
        NamedThread.start("a-name-longer-than-fifteen-bytes") {
            report.yield((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "")
        }
        var iterator = seen.makeAsyncIterator()
        let name = await iterator.next()?.trimmingCharacters(in: .newlines)
        #expect(name == "a-name-longer-t")
        #expect(name?.utf8.count == NamedThread.maximumNameBytes)
    }
}
