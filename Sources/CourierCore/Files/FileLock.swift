#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive advisory lock on a file (`flock`), held until released or the process exits, so
/// two processes never share one data directory.
public final class FileLock: Sendable {
    private let descriptor: Int32
    /// The lock file's path.
    public let path: String

    /// Why a lock could not be taken.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// The lock file.
        public let path: String
        /// Whether another process holds the lock (as opposed to an I/O error).
        public let heldByAnotherProcess: Bool
        /// `errno` text.
        public let message: String

        /// A human sentence.
        public var description: String {
            heldByAnotherProcess ? "\(path) is locked by another process" : "cannot lock \(path): \(message)"
        }
    }

    /// Creates `path` if needed and takes its lock without waiting.
    /// - Throws: `FileLock.Failure` when another process holds it or the file cannot be opened.
    public init(path: String) throws(Failure) {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw Failure(path: path, heldByAnotherProcess: false, message: String(cString: strerror(errno)))
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let busy = errno == EWOULDBLOCK
            let message = String(cString: strerror(errno))
            close(fd)
            throw Failure(path: path, heldByAnotherProcess: busy, message: message)
        }
        descriptor = fd
        self.path = path
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
