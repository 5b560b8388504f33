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

    /// Creates `path` if needed and waits until its lock is free, then takes it: a lock that
    /// guards one step (a ratchet advance) shared by processes, rather than a whole directory.
    /// The lock belongs to this object's descriptor, so two objects in one process exclude each
    /// other as two processes do.
    /// - Throws: `FileLock.Failure` when the file cannot be opened or locked.
    public init(waitingFor path: String) throws(Failure) {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw Failure(path: path, heldByAnotherProcess: false, message: String(cString: strerror(errno)))
        }
        var result = flock(fd, LOCK_EX)
        while result != 0 && errno == EINTR { result = flock(fd, LOCK_EX) }
        guard result == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw Failure(path: path, heldByAnotherProcess: false, message: message)
        }
        descriptor = fd
        self.path = path
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
