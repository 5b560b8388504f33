import CourierCore
import Foundation
import Synchronization

/// Writes access-log lines to a file descriptor from a thread of its own, so that the thread
/// that logs (an engine's loop, for routes answered there) never waits on the descriptor: a
/// terminal, or a pipe to a log collector that has stopped reading, blocks only this writer.
///
/// Lines wait in memory, at most `maximumPendingBytes`; past that, new lines are dropped and
/// counted (`droppedLines`) until the writer catches up, as a busy server's access log should
/// rather than slow every connection.
///
/// ```swift
/// let log = AccessLogWriter(fileDescriptor: STDERR_FILENO)
/// configuration.accessLog = log.append
/// ```
public final class AccessLogWriter: Sendable {
    private struct State {
        var pending: [UInt8] = []
        var dropped = 0
        var stopped = false
    }

    private let fileDescriptor: Int32
    private let maximumPendingBytes: Int
    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)

    /// Starts the writer's thread.
    /// - Parameters:
    ///   - fileDescriptor: where the lines go (standard error by default); it stays open.
    ///   - maximumPendingBytes: how much may wait to be written before lines are dropped.
    public init(fileDescriptor: Int32 = STDERR_FILENO, maximumPendingBytes: Int = 1 << 20) {
        self.fileDescriptor = fileDescriptor
        self.maximumPendingBytes = maximumPendingBytes
        NamedThread.start("access-log") { [self] in run() }
    }

    /// Queues one line (a newline is added) and returns at once.
    public func append(_ line: String) {
        let wasEmpty = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            guard state.pending.count + line.utf8.count + 1 <= maximumPendingBytes else {
                state.dropped += 1
                return false
            }
            let wasEmpty = state.pending.isEmpty
            state.pending.append(contentsOf: line.utf8)
            state.pending.append(UInt8(ascii: "\n"))
            return wasEmpty
        }
        if wasEmpty { wake.signal() }
    }

    /// Lines dropped because too much was waiting to be written.
    public var droppedLines: Int { state.withLock { $0.dropped } }

    /// Stops the writer's thread once what is pending has been written (or the descriptor
    /// refuses it); later lines are dropped silently.
    public func stop() {
        state.withLock { $0.stopped = true }
        wake.signal()
    }

    private func run() {
        while true {
            wake.wait()
            // Everything pending goes out in as few writes as the descriptor takes.
            while true {
                let (bytes, stopped) = state.withLock { state in
                    let bytes = state.pending
                    state.pending.removeAll(keepingCapacity: true)
                    return (bytes, state.stopped)
                }
                if bytes.isEmpty {
                    if stopped { return }
                    break
                }
                guard write(bytes) else { return }
            }
        }
    }

    /// Writes all of `bytes`; `false` when the descriptor refuses them (closed, or an error).
    private func write(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(fileDescriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }
    }
}
