import CourierTesting
import Foundation
import Synchronization

/// A `courier chat` process driven through its standard input, its output collected as it comes.
final class ChatProcess: Sendable {
    let child: ChildProcess
    private let collected = OutputBuffer()
    private let reader: Task<Void, Never>

    init(_ executable: String, _ arguments: [String]) throws {
        child = try ChildProcess(executable, arguments, input: .pipe, output: .pipe, errorOutput: .inherit)
        let output = child.output
        reader = Task.detached { [collected] in
            _ = await runOffPool {
                // `availableData` returns what the pipe holds now (`read(upToCount:)` waits for
                // the whole count on Linux); empty at the end of the stream.
                while let data = output?.availableData, !data.isEmpty {
                    collected.text.withLock { $0 += String(decoding: data, as: UTF8.self) }
                }
            }
        }
    }

    /// Everything printed so far.
    var output: String { collected.text.withLock { $0 } }

    /// Writes one command line.
    func send(_ line: String) throws {
        try child.input?.write(contentsOf: Data((line + "\n").utf8))
    }

    /// Waits until the output holds `text` `count` times.
    /// - Returns: whether it did before the deadline.
    func waitFor(_ text: String, count: Int = 1, timeout: Duration = .seconds(30)) async -> Bool {
        await poll(timeout: timeout) { output.components(separatedBy: text).count - 1 >= count }
    }

    /// Sends `/quit` and waits for the exit status.
    func quit() async throws -> Int32 {
        try send("/quit")
        let status = await runOffPool { [child] in child.wait() }
        await reader.value
        return status
    }
}

/// A child's output so far, shared between the thread reading it and the test.
final class OutputBuffer: Sendable {
    let text = Mutex("")
}
