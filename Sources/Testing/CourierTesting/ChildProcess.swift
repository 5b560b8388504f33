internal import CSpawn
import Foundation

/// A program the tests start: a Python peer, `openssl`, the project's own executables.
///
/// Started with posix_spawn rather than Foundation's `Process`, whose `run()` on Linux reads past
/// the end of its /proc/self/fd listing and crashed the test process when thousands of
/// descriptors were open (the socket-heavy suites run beside the ones that start peers).
public final class ChildProcess: @unchecked Sendable {
    /// Where one of the child's standard streams goes.
    public enum Stream: Sendable {
        /// The test process's own stream.
        case inherit
        /// /dev/null.
        case discard
        /// A pipe whose other end this object holds.
        case pipe
    }

    /// What a finished child printed and how it ended.
    public struct Outcome: Sendable {
        /// The exit status, or 128 + the signal that ended it.
        public let status: Int32
        /// Its standard output.
        public let output: String
        /// Its standard error.
        public let errorOutput: String
    }

    /// The child's process id.
    public let processIdentifier: Int32
    /// The writing end of the child's standard input, when it is `.pipe`.
    public let input: FileHandle?
    /// The reading end of the child's standard output, when it is `.pipe`.
    public let output: FileHandle?
    /// The reading end of the child's standard error, when it is `.pipe`.
    public let errorOutput: FileHandle?

    private let lock = NSLock()
    private var exitStatus: Int32?

    /// Starts `executable` with `arguments`.
    /// - Parameters:
    ///   - environment: the child's whole environment; `nil` passes this process's on.
    ///   - directory: the child's working directory; `nil` keeps this process's.
    /// - Throws: `ChildProcessError` when the program cannot be started.
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        directory: String? = nil, input: Stream = .inherit, output: Stream = .inherit,
        errorOutput: Stream = .inherit
    ) throws {
        var parentEnds: [FileHandle?] = []
        var childEnds: [Int32] = []
        defer { for fd in childEnds where fd >= 0 { close(fd) } }
        for (index, stream) in [input, output, errorOutput].enumerated() {
            switch stream {
            case .inherit:
                parentEnds.append(nil)
                childEnds.append(-1)
            case .discard:
                parentEnds.append(nil)
                childEnds.append(open("/dev/null", (index == 0 ? O_RDONLY : O_WRONLY) | O_CLOEXEC))
            case .pipe:
                var fds: [Int32] = [-1, -1]
                let code = courier_pipe(&fds)
                guard code == 0 else { throw ChildProcessError(executable: executable, code: code) }
                let (parent, child) = index == 0 ? (fds[1], fds[0]) : (fds[0], fds[1])
                parentEnds.append(FileHandle(fileDescriptor: parent, closeOnDealloc: true))
                childEnds.append(child)
            }
        }
        var pid: Int32 = 0
        let argv = [executable] + arguments
        let envp = environment.map { $0.map { "\($0.key)=\($0.value)" } }
        let result = Self.withCStrings(argv) { argv in
            Self.withOptionalCStrings(envp) { envp in
                courier_spawn(executable, argv, envp, directory, childEnds[0], childEnds[1], childEnds[2], &pid)
            }
        }
        guard result == 0 else { throw ChildProcessError(executable: executable, code: result) }
        processIdentifier = pid
        self.input = parentEnds[0]
        self.output = parentEnds[1]
        self.errorOutput = parentEnds[2]
    }

    deinit {
        // Reaps a child nobody waited for, so it leaves no zombie behind.
        if lock.withLock({ exitStatus == nil }) {
            let pid = processIdentifier
            Thread.detachNewThread {
                var status: Int32 = 0
                _ = waitpid(pid, &status, 0)
            }
        }
    }

    /// Sends `signal` to the child.
    public func signal(_ number: Int32) { kill(processIdentifier, number) }

    /// Sends SIGTERM.
    public func terminate() { signal(SIGTERM) }

    /// Blocks until the child ends; its exit status, or 128 + the signal that ended it. Call off
    /// Swift's shared pool (`runOffPool`).
    @discardableResult
    public func wait() -> Int32 {
        if let status = lock.withLock({ exitStatus }) { return status }
        var raw: Int32 = 0
        var result: Int32
        repeat { result = waitpid(processIdentifier, &raw, 0) } while result < 0 && errno == EINTR
        return lock.withLock {
            // `hasExited` may have reaped it meanwhile (then `waitpid` failed and it set the status).
            if result == processIdentifier && exitStatus == nil { exitStatus = Self.status(raw) }
            return exitStatus ?? -1
        }
    }

    /// Whether the child has ended, without waiting for it.
    public var hasExited: Bool {
        lock.withLock {
            if exitStatus != nil { return true }
            var raw: Int32 = 0
            guard waitpid(processIdentifier, &raw, WNOHANG) == processIdentifier else { return false }
            exitStatus = Self.status(raw)
            return true
        }
    }

    /// The exit status, or 128 + the signal, of a raw `waitpid` status.
    private static func status(_ raw: Int32) -> Int32 {
        let signalled = raw & 0x7F
        return signalled == 0 ? (raw >> 8) & 0xFF : 128 + signalled
    }

    /// Runs a program to its end and collects both of its outputs (read together, so neither
    /// pipe can fill and stall it). Call off Swift's shared pool.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        directory: String? = nil
    ) throws -> Outcome {
        let child = try ChildProcess(
            executable, arguments, environment: environment, directory: directory, input: .discard,
            output: .pipe, errorOutput: .pipe)
        let (output, errors) = readBoth(child.output!.fileDescriptor, child.errorOutput!.fileDescriptor)
        return Outcome(
            status: child.wait(), output: String(decoding: output, as: UTF8.self),
            errorOutput: String(decoding: errors, as: UTF8.self))
    }

    private static func readBoth(_ first: Int32, _ second: Int32) -> ([UInt8], [UInt8]) {
        var collected: [[UInt8]] = [[], []]
        var polled = [
            pollfd(fd: first, events: Int16(POLLIN), revents: 0), pollfd(fd: second, events: Int16(POLLIN), revents: 0),
        ]
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while polled.contains(where: { $0.fd >= 0 }) {
            guard poll(&polled, nfds_t(polled.count), -1) >= 0 else {
                if errno == EINTR { continue }
                break
            }
            for index in polled.indices where polled[index].fd >= 0 && polled[index].revents != 0 {
                let count = read(polled[index].fd, &buffer, buffer.count)
                if count > 0 {
                    collected[index] += buffer[..<count]
                } else if count == 0 || errno != EINTR {
                    polled[index].fd = -1
                }
            }
        }
        return (collected[0], collected[1])
    }

    private static func withCStrings<R>(
        _ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R
    ) -> R {
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
        pointers.append(nil)
        defer { for pointer in pointers { free(pointer) } }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    private static func withOptionalCStrings<R>(
        _ strings: [String]?, _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>?) -> R
    ) -> R {
        guard let strings else { return body(nil) }
        return withCStrings(strings) { body($0) }
    }
}

/// A program could not be started.
public struct ChildProcessError: Error, CustomStringConvertible {
    /// The program.
    public let executable: String
    /// The errno value posix_spawn gave.
    public let code: Int32

    public var description: String { "cannot start \(executable): \(String(cString: strerror(code)))" }
}
