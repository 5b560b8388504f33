import Foundation

/// Attachment ciphertext on disk: one file per attachment, named by its id, in one directory.
public struct AttachmentFiles: AttachmentStore {
    /// The directory.
    public let directory: String

    /// Keeps attachments in `directory` (created if missing).
    public init(directory: String) {
        self.directory = directory
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    func path(_ id: String) -> String { directory + "/" + id }

    /// Writes `bytes` at `offset` and syncs, so a 308/200 means they are on disk.
    public func write(_ bytes: [UInt8], at offset: Int64, to id: String) throws(MessengerStoreError) {
        let fd = open(path(id), O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Self.error(errno) }
        defer { close(fd) }
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes {
                pwrite(fd, $0.baseAddress, $0.count, off_t(offset) + off_t(written))
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw Self.error(errno)
            }
            written += n
        }
        guard fsync(fd) == 0 else { throw Self.error(errno) }
    }

    public func read(_ id: String) throws(MessengerStoreError) -> [UInt8]? {
        FileManager.default.contents(atPath: path(id)).map { [UInt8]($0) }
    }

    public func remove(_ id: String) { try? FileManager.default.removeItem(atPath: path(id)) }

    private static func error(_ code: Int32) -> MessengerStoreError {
        MessengerStoreError(code == ENOSPC || code == EDQUOT ? .diskFull : .storage, String(cString: strerror(code)))
    }
}
