#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Database {
    /// Creates the database file at `path` with `permissions`, or narrows an existing file and its
    /// `-wal` and `-shm` files to them, before SQLite opens it. SQLite creates `-wal` and `-shm` with
    /// the database file's mode, so new ones follow.
    static func restrictPermissions(of path: String, to permissions: UInt16) throws(DatabaseError) {
        let mode = mode_t(permissions)
        let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw permissionError(path, errno) }
        let changed = fchmod(descriptor, mode) == 0 ? 0 : errno
        close(descriptor)
        guard changed == 0 else { throw permissionError(path, changed) }
        for suffix in ["-wal", "-shm"] where chmod(path + suffix, mode) != 0 && errno != ENOENT {
            throw permissionError(path + suffix, errno)
        }
    }

    private static func permissionError(_ path: String, _ code: Int32) -> DatabaseError {
        // SQLITE_CANTOPEN: the file could not be prepared for opening.
        DatabaseError(
            resultCode: 14, message: "cannot set the permissions of \(path): \(String(cString: strerror(code)))")
    }
}
