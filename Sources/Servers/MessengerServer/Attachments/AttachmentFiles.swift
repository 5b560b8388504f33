import Foundation

/// Attachment ciphertext on disk: one file per attachment, named by its id, in one directory.
struct AttachmentFiles: Sendable {
    let directory: String

    init(directory: String) {
        self.directory = directory
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    func path(_ id: String) -> String { directory + "/" + id }

    /// Writes `bytes` at `offset` and syncs, so a 308/200 means they are on disk.
    func write(_ bytes: [UInt8], at offset: Int64, to id: String) throws {
        let fd = open(path(id), O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw AttachmentFileError(errno: errno) }
        defer { close(fd) }
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes {
                pwrite(fd, $0.baseAddress, $0.count, off_t(offset) + off_t(written))
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw AttachmentFileError(errno: errno)
            }
            written += n
        }
        guard fsync(fd) == 0 else { throw AttachmentFileError(errno: errno) }
    }

    func read(_ id: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path(id)).map { [UInt8]($0) }
    }

    func remove(_ id: String) { try? FileManager.default.removeItem(atPath: path(id)) }
}

struct AttachmentFileError: Error {
    let errno: Int32
    var isDiskFull: Bool { errno == ENOSPC || errno == EDQUOT }
}
