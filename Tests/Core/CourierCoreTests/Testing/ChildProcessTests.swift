import CourierTesting
import Foundation
import Testing

/// CourierTesting's `ChildProcess`, which replaced Foundation's `Process` after `Process.run()`
/// crashed the test process by reading past its /proc/self/fd listing with thousands of
/// descriptors open.
@Suite struct ChildProcessTests {
    @Test func aChildStartedWithThousandsOfDescriptorsOpenInheritsNoneOfThem() async throws {
        let held = (0..<1_000).map { _ in open("/dev/null", O_RDONLY) }
        defer { for fd in held where fd >= 0 { close(fd) } }
        try #require(held.allSatisfy { $0 >= 0 })
        let outcome = try await runOffPool { Result { try ChildProcess.run("/bin/sh", ["-c", "ls /proc/$$/fd"]) } }
            .get()
        #expect(outcome.status == 0)
        let descriptors = Set(outcome.output.split(separator: "\n").compactMap { Int($0) })
        // The shell's own three, and one that `ls` may show while it reads the directory.
        #expect(descriptors.isSuperset(of: [0, 1, 2]))
        #expect(descriptors.subtracting([0, 1, 2]).count <= 1, "inherited: \(descriptors.sorted())")
    }

    @Test func bothOutputsArriveWhole() async throws {
        // 200 KB on each stream: more than a pipe holds, so reading one after the other would stall.
        let script = "yes a | head -c 200000; yes b | head -c 200000 >&2"
        let outcome = try await runOffPool { Result { try ChildProcess.run("/bin/sh", ["-c", script]) } }.get()
        #expect(outcome.status == 0)
        #expect(outcome.output == String(repeating: "a\n", count: 100_000))
        #expect(outcome.errorOutput == String(repeating: "b\n", count: 100_000))
    }

    @Test func exitStatusEnvironmentAndDirectoryAreThoseGiven() async throws {
        let outcome = try await runOffPool {
            Result {
                try ChildProcess.run(
                    "/bin/sh", ["-c", "echo \"$GREETING\"; pwd; exit 7"], environment: ["GREETING": "hello"],
                    directory: "/tmp")
            }
        }.get()
        #expect(outcome.status == 7)
        #expect(outcome.output == "hello\n/tmp\n")
    }

    @Test func aSignalledChildReportsTheSignal() async throws {
        let child = try ChildProcess("/bin/sleep", ["60"], output: .discard)
        child.signal(SIGKILL)
        let status = await runOffPool { child.wait() }
        #expect(status == 128 + SIGKILL)
    }

    @Test func aMissingProgramIsAnError() {
        #expect(throws: ChildProcessError.self) { try ChildProcess("/nonexistent/program", []) }
    }
}
