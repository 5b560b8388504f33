import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes files only their owner can read (mode 0600, whatever the umask): decrypted attachments
/// must not become readable by every account on the machine once saved.
enum PrivateFile {
    /// Writes `bytes` to a new 0600 file beside `path`, then renames it over `path`, so a reader
    /// never sees a partial file and an older file's wider mode does not survive.
    /// - Throws: `CommandError` naming the path and the system's reason.
    static func save(_ bytes: [UInt8], to path: String) throws {
        let temporary = path + ".\(UUID().uuidString).part"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode_t(0o600))
        guard descriptor >= 0 else { throw failure("create", temporary) }
        var written = bytes.withUnsafeBytes { raw -> Bool in
            var done = 0
            while done < raw.count, let base = raw.baseAddress {
                let count = write(descriptor, base + done, raw.count - done)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                done += count
            }
            return true
        }
        // The mode asked of `open` is narrowed by the umask, never widened; fchmod makes it exact.
        written = written && fchmod(descriptor, mode_t(0o600)) == 0 && fsync(descriptor) == 0
        let writeFailure = written ? nil : failure("write", path)
        close(descriptor)
        guard writeFailure == nil, rename(temporary, path) == 0 else {
            let error = writeFailure ?? failure("rename", path)
            unlink(temporary)
            throw error
        }
    }

    private static func failure(_ operation: String, _ path: String) -> CommandError {
        CommandError("could not \(operation) \(path): \(String(cString: strerror(errno)))")
    }
}
