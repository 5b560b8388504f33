import CourierCore
import Realtime
import Synchronization

/// Keeps a device receiving: catch up over HTTP, then listen on the delivery socket; when the
/// socket closes or a step fails, wait a full-jitter delay (`Backoff`, on the injected clock) and
/// start again. The attempt count returns to zero once a connection has stayed up for
/// `stableAfter`, so a server that accepts and then drops at once keeps the delays growing.
public final class DeliveryLoop: Sendable {
    /// Everything the catch-ups and sockets produced, in order.
    public let events: AsyncStream<IncomingEvent>
    private let task: Mutex<Task<Void, Never>?>

    /// Starts the loop.
    /// - Parameters:
    ///   - client: the device.
    ///   - transport: opens the delivery socket (`WebSocketTransport` to `client.deliverySocketURL`).
    ///   - backoff: the reconnect delays.
    ///   - stableAfter: how long a connection must last for the delays to start over.
    public init(
        client: MessengerClient, transport: any RealtimeTransport,
        backoff: Backoff = Backoff(base: .seconds(1), cap: .seconds(60)),
        stableAfter: Duration = .seconds(30)
    ) {
        let (events, sink) = AsyncStream.makeStream(of: IncomingEvent.self, bufferingPolicy: .unbounded)
        self.events = events
        let clock = client.clock
        task = Mutex(
            Task {
                var attempt = 0
                while !Task.isCancelled {
                    let opened = clock.uptimeNanoseconds
                    do {
                        for event in try await client.sync() { sink.yield(event) }
                        let listener = try await client.listen(transport: transport)
                        await withTaskCancellationHandler {
                            for await event in listener.events { sink.yield(event) }
                        } onCancel: {
                            listener.stop()
                        }
                    } catch {
                        // Counted as a failed attempt below.
                    }
                    if clock.uptimeNanoseconds - opened >= UInt64(stableAfter.components.seconds) * 1_000_000_000 {
                        attempt = 0
                    }
                    guard !Task.isCancelled else { break }
                    try? await clock.sleep(for: backoff.delay(attempt: attempt))
                    attempt += 1
                }
                sink.finish()
            })
    }

    /// Stops the loop and closes the socket; `events` finishes.
    public func stop() {
        task.withLock { $0?.cancel() }
    }
}
