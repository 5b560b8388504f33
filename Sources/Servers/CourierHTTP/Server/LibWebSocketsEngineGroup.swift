internal import CLibWebSockets
import Foundation
import Synchronization

/// Several libwebsockets contexts serving one port, a loop and thread each: Debian's lws is built
/// with `LWS_MAX_SMP=1` (one service thread per context), so more threads mean more contexts,
/// each listening with `SO_REUSEPORT`.
final class LibWebSocketsEngineGroup: HTTPEngine {
    let engines: [LibWebSocketsEngine]
    private let executor: HandlerExecutor
    var port: Int { engines[0].port }

    /// Starts `configuration.serviceThreads` contexts, each accepting on its own listening
    /// socket (`SO_REUSEPORT`): the first binds the configured port (0 picks one), the others
    /// the same port.
    init(configuration: HTTPServerConfiguration, responder: Responder) throws {
        let count = max(1, configuration.serviceThreads)
        let share = max(1, configuration.maximumConnections / count)
        var port = configuration.port
        var engines: [LibWebSocketsEngine] = []
        let executor = HandlerExecutor(count: configuration.handlerThreads, name: "http-handler")
        do {
            for _ in 0..<count {
                var bound: Int32 = 0
                let fd = courier_listen_shared(configuration.host, Int32(port), &bound)
                guard fd >= 0 else {
                    throw HTTPServerError(
                        "cannot listen on \(configuration.host):\(port) (\(String(cString: strerror(errno))))")
                }
                port = Int(bound)
                do {
                    engines.append(
                        try LibWebSocketsEngine(
                            configuration: configuration, responder: responder, listener: (fd, port),
                            maximumConnections: share, executor: executor))
                } catch {
                    courier_close(fd)
                    throw error
                }
            }
        } catch {
            for engine in engines { _ = engine.stop(deadline: .zero) }
            executor.stop()
            throw error
        }
        self.engines = engines
        self.executor = executor
    }

    /// Stops every context at once (each drains, closes its WebSockets with 1001 and joins its
    /// thread), so the deadline is not spent once per context.
    func stop(deadline: Duration) -> Int {
        let left = Atomic(0)
        DispatchQueue.concurrentPerform(iterations: engines.count) { index in
            left.add(engines[index].stop(deadline: deadline), ordering: .relaxed)
        }
        executor.stop()
        return left.load(ordering: .relaxed)
    }

    /// Stops every context at once, suspending until all have stopped.
    func shutdown(deadline: Duration) async -> Int {
        let left = await withTaskGroup(of: Int.self) { group in
            for engine in engines { group.addTask { await engine.shutdown(deadline: deadline) } }
            return await group.reduce(0, +)
        }
        executor.stop()
        return left
    }
}
