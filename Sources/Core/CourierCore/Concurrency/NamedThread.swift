import Foundation

/// Starts threads whose names the kernel knows (as `ps -L`, `top -H`, `perf` and debuggers show
/// them). Foundation on Linux does not reliably pass a thread's name on to the kernel (the thread
/// then keeps its creator's name), so there the new thread writes its own `comm` (proc(5)).
public enum NamedThread {
    /// The longest name the kernel keeps (it cuts longer ones to this many bytes).
    public static let maximumNameBytes = 15

    /// Starts a thread named `name` (at most `maximumNameBytes` bytes) running `body`.
    public static func start(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread {
            nameCurrentThread(name)
            body()
        }
        thread.start()
    }

    /// Names the calling thread.
    public static func nameCurrentThread(_ name: String) {
        Thread.current.name = name
        #if os(Linux)
            let descriptor = open("/proc/thread-self/comm", O_WRONLY)
            guard descriptor >= 0 else { return }
            defer { close(descriptor) }
            let bytes = Array(name.utf8.prefix(maximumNameBytes))
            _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        #endif
    }
}
