import Foundation

private let launching = NSLock()

extension Process {
    /// Starts the process with no other `launchSerially()` under way in this test process. Foundation's
    /// `Process.run()` on Linux crashed (a bad read in its memcpy) when the suites started peers
    /// and `openssl` on several threads at once.
    /// - Throws: what `run()` throws.
    public func launchSerially() throws {
        launching.lock()
        defer { launching.unlock() }
        try run()
    }
}
