import CourierTesting
import Foundation
import Testing

@testable import CourierHTTP

/// Handlers run on the server's own executor: work elsewhere in the process that holds every
/// thread of Swift's shared pool does not hold requests up.
@Suite(.timeLimit(.minutes(1)))
struct HandlerExecutorTests {
    @Test func requestsAreAnsweredWhileTheSharedPoolIsHeld() async throws {
        var router = Router()
        router.add(.get, "/hello") { _, _ in
            await Task.yield()
            return .text("hello")
        }
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        let server = HTTPServer(configuration: configuration, router: router)
        try server.start()
        let port = server.port
        let width = ProcessInfo.processInfo.activeProcessorCount
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        // Blocking jobs on every thread of the shared pool (a CPU-bound or blocking library call
        // of the host would do the same); they let go when the request is done, or after 10 s.
        for _ in 0..<width {
            Task.detached {
                started.signal()
                _ = release.wait(timeout: .now() + 10)
            }
        }
        let status = await withCheckedContinuation { (continuation: CheckedContinuation<Int?, Never>) in
            let thread = Thread {
                for _ in 0..<width { started.wait() }
                var status: Int?
                if let socket = try? RawSocket(port: port, timeoutSeconds: 5) {
                    try? socket.send("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    status = socket.readResponse()?.status
                }
                for _ in 0..<width { release.signal() }
                continuation.resume(returning: status)
            }
            thread.start()
        }
        #expect(status == 200)
        await server.shutdown(deadline: .zero)
    }
}
