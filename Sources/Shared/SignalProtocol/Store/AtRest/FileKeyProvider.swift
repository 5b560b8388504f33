internal import CourierCore
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Keeps the storage key in a file that only its owner can read or write (mode 0600), created
/// with a random key on first use. For Linux servers and desktops; on Apple platforms prefer
/// `KeychainKeyProvider`. Put the file outside the database's directory when you can (another
/// volume, a secrets mount), so one copied directory does not hold both.
public struct FileKeyProvider: KeyProvider {
    /// The key file.
    public let path: String

    /// A provider for the key file at `path` (not touched until the key is asked for).
    public init(path: String) {
        self.path = path
    }

    /// Reads the key, creating the file with a random key if it does not exist. A file that
    /// others could read is narrowed to 0600.
    /// - Throws: `.storageFailure` when the file cannot be read or created, or is not 32 bytes.
    public func storageKey() throws -> SecretBytes {
        if let key = try load() { return key }
        try create()
        guard let key = try load() else { throw failure("read the storage key file after creating it") }
        return key
    }

    private func load() throws -> SecretBytes? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw failure("open the storage key file")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw failure("inspect the storage key file") }
        guard info.st_mode & mode_t(0o170000) == mode_t(0o100000), Int(info.st_size) == Sodium.aeadKeyLength else {
            throw SignalProtocolError(.storageFailure, "storage key file \(path) is not a 32-byte regular file")
        }
        if info.st_mode & mode_t(0o077) != 0, fchmod(descriptor, mode_t(0o600)) != 0 {
            throw failure("restrict the storage key file to its owner")
        }
        return try SecretBytes(count: Sodium.aeadKeyLength) { buffer in
            guard let base = buffer.baseAddress else { throw failure("read the storage key file") }
            var done = 0
            while done < buffer.count {
                let count = read(descriptor, base + done, buffer.count - done)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { throw failure("read the storage key file") }
                done += count
            }
        }
    }

    /// Writes a new key to a private temporary file and links it into place, so no reader ever
    /// sees a partial key; if another process linked its key first, that key wins.
    private func create() throws {
        let key = try Sodium.randomSecret(Sodium.aeadKeyLength)
        let temporary = path + ".\(Hex.encode(try Sodium.randomBytes(8))).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode_t(0o600))
        guard descriptor >= 0 else { throw failure("create the storage key file") }
        defer { unlink(temporary) }
        let written = key.withUnsafeBytes { bytes -> Bool in
            guard let base = bytes.baseAddress else { return false }
            var done = 0
            while done < bytes.count {
                let count = write(descriptor, base + done, bytes.count - done)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                done += count
            }
            return true
        }
        let synced = written && fchmod(descriptor, mode_t(0o600)) == 0 && fsync(descriptor) == 0
        close(descriptor)
        guard synced else { throw failure("write the storage key file") }
        if link(temporary, path) != 0 && errno != EEXIST { throw failure("create the storage key file") }
    }

    private func failure(_ operation: String) -> SignalProtocolError {
        SignalProtocolError(
            .storageFailure, "could not \(operation) \(path): \(String(cString: strerror(errno)))")
    }
}
