import CourierCore
import CourierTesting
import Foundation
import Synchronization
import Testing

@testable import CourierHTTP

/// A handler that holds its request until the test lets it go: it reports that it has started on
/// `entered`, then waits for `release()`.
final class HeldHandler: Sendable {
    let entered: AsyncStream<Void>
    private let enteredContinuation: AsyncStream<Void>.Continuation
    private let released = CompletionEvent<Void>()

    init() {
        (entered, enteredContinuation) = AsyncStream.makeStream(of: Void.self)
    }

    func release() { released.signal(()) }

    func handle() async -> HTTPResponse {
        enteredContinuation.yield()
        await released.value
        return .text("done")
    }
}

/// Counts a background job's runs and reports each on a stream.
final class TickCounter: Sendable {
    let ticks: AsyncStream<Int>
    private let continuation: AsyncStream<Int>.Continuation
    private let count = Atomic<Int>(0)

    init() {
        (ticks, continuation) = AsyncStream.makeStream(of: Int.self)
    }

    func tick() { continuation.yield(count.add(1, ordering: .relaxed).newValue) }
    var value: Int { count.load(ordering: .relaxed) }
}

/// `run()` / `shutdown()`: the server's async lifecycle, its drain, and its background jobs.
@Suite(.timeLimit(.minutes(2)))
struct ServerLifecycleTests {
    static func configuration() -> HTTPServerConfiguration {
        var http = HTTPServerConfiguration()
        http.port = 0
        http.handlerThreads = 2
        return http
    }

    /// A job that says when `run()` has begun. A test shuts a server down only after that: a
    /// `run()` task that a loaded machine starts after the shutdown finds the server stopped and
    /// is refused, which is right for it and not what the test checks.
    static func runEntered() -> (job: BackgroundJob, entered: AsyncStream<Void>) {
        let (entered, continuation) = AsyncStream.makeStream(of: Void.self)
        let job = BackgroundJob(name: "run-entered") {
            continuation.yield()
            // Waits for the shutdown's cancellation only.
            let (never, _) = AsyncStream.makeStream(of: Void.self)
            for await _ in never {}
        }
        return (job, entered)
    }

    @Test func runServesUntilShutdownAndThenReturns() async throws {
        var router = Router()
        router.add("GET", "/hello") { _ in .text("hello") }
        let (job, entered) = Self.runEntered()
        let server = HTTPServer(configuration: Self.configuration(), router: router, jobs: [job])
        try server.start()
        let running = Task { try await server.run() }
        _ = await entered.first { _ in true }
        let answer = try await HTTPClient(timeout: .seconds(30)).send("GET", server.baseURL + "/hello")
        #expect(answer.status == 200)
        #expect(await server.shutdown(deadline: .seconds(5)) == 0)
        try await running.value
        // A stopped server does not start again, and a second shutdown has nothing to do.
        #expect(throws: HTTPServerError.self) { try server.start() }
        #expect(await server.shutdown() == 0)
    }

    @Test func cancellingTheRunningTaskShutsTheServerDown() async throws {
        let server = HTTPServer(configuration: Self.configuration(), router: Router())
        try server.start()
        let running = Task { try await server.run() }
        running.cancel()
        try await running.value
        #expect(server.runningEngine == nil)
        #expect(throws: HTTPServerError.self) { try server.start() }
    }

    @Test func aStoppedServerDoesNotRunAgain() async throws {
        let server = HTTPServer(configuration: Self.configuration(), router: Router())
        let running = Task { try await server.run() }
        await server.shutdown(deadline: .zero)
        // The first `run()` ends (or, if the shutdown came first, is refused: the server has stopped).
        _ = try? await running.value
        await #expect(throws: HTTPServerError.self) { try await server.run() }
    }

    @Test func aRequestInFlightDuringShutdownIsAnsweredAndNewOnesGet503() async throws {
        let held = HeldHandler()
        var router = Router()
        router.add("GET", "/slow") { _, _ in await held.handle() }
        router.add("GET", "/fast") { _ in .text("fast") }
        let (job, runEntered) = Self.runEntered()
        let server = HTTPServer(configuration: Self.configuration(), router: router, jobs: [job])
        try server.start()
        let running = Task { try await server.run() }
        _ = await runEntered.first { _ in true }
        let client = HTTPClient(timeout: .seconds(30))
        let inFlight = Task { try await client.send("GET", server.baseURL + "/slow") }
        var entered = held.entered.makeAsyncIterator()
        _ = await entered.next()
        let stopping = Task { await server.shutdown(deadline: .seconds(30)) }
        #expect(await poll { server.responder.lifecycle.isDraining })
        let port = server.port
        let refused = await runOffPool { () -> (status: Int, head: String, body: [UInt8])? in
            guard let socket = try? RawSocket(port: port, timeoutSeconds: 30) else { return nil }
            try? socket.send("GET /fast HTTP/1.1\r\nHost: x\r\n\r\n")
            return socket.readResponse()
        }
        #expect(refused?.status == 503)
        #expect(refused?.head.lowercased().contains("retry-after: 1") == true)
        #expect(refused?.head.lowercased().contains("connection: close") == true)
        held.release()
        let answer = try await inFlight.value
        #expect(answer.status == 200)
        #expect(String(decoding: answer.body, as: UTF8.self) == "done")
        #expect(await stopping.value == 0)
        try await running.value
    }

    @Test func aDrainGivesUpAtItsDeadlineAndCountsWhatWasLeft() async throws {
        let held = HeldHandler()
        var router = Router()
        router.add("GET", "/slow") { _, _ in await held.handle() }
        let server = HTTPServer(configuration: Self.configuration(), router: router)
        let client = RouterTestClient(server: server)
        try server.start()
        let inFlight = Task { try await client.execute("GET", "/slow") }
        var entered = held.entered.makeAsyncIterator()
        _ = await entered.next()
        #expect(await server.shutdown(deadline: .milliseconds(50)) == 1)
        held.release()
        #expect(try await inFlight.value.status == 200)
    }

    @Test func backgroundJobsRunOnTheClockAndStopWithTheServer() async throws {
        let clock = ManualClock()
        let counter = TickCounter()
        let job = BackgroundJob.every(.seconds(60), on: clock, name: "ticker") { counter.tick() }
        let server = HTTPServer(configuration: Self.configuration(), router: Router(), jobs: [job])
        let running = Task { try await server.run() }
        var ticks = counter.ticks.makeAsyncIterator()
        // Once at start, then once per interval of the manual clock.
        #expect(await ticks.next() == 1)
        try await clock.waitForSleepers(1)
        clock.advance(by: .seconds(60))
        #expect(await ticks.next() == 2)
        try await clock.waitForSleepers(1)
        await server.shutdown(deadline: .zero)
        // `run()` returns only once its jobs have ended: nothing sleeps on the clock any more,
        // and however far it moves, the job does not run again.
        try await running.value
        #expect(clock.sleeperCount == 0)
        clock.advance(by: .seconds(3_600))
        #expect(counter.value == 2)
    }

    @Test func aJobOfItsOwnShapeIsCancelledOnShutdown() async throws {
        let (events, continuation) = AsyncStream.makeStream(of: String.self)
        let job = BackgroundJob(name: "waiter") {
            continuation.yield("started")
            // Waits for cancellation only.
            let (never, _) = AsyncStream.makeStream(of: Void.self)
            for await _ in never {}
            continuation.yield(Task.isCancelled ? "cancelled" : "ended")
        }
        let server = HTTPServer(configuration: Self.configuration(), router: Router(), jobs: [job])
        let running = Task { try await server.run() }
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == "started")
        await server.shutdown(deadline: .zero)
        try await running.value
        #expect(await iterator.next() == "cancelled")
    }

    @Test(arguments: [
        // (inFlight, now, lastArrival, expected) with start 0, deadline 1000, quiet 100.
        (2, 10, 5, ServerLifecycle.DrainStep.waitForIdle(until: 1_000)),
        (2, 1_000, 5, .finished(unanswered: 2)),
        (0, 50, 0, .waitUntil(100)),
        (0, 150, 120, .waitUntil(220)),
        (0, 230, 120, .finished(unanswered: 0)),
        (0, 1_000, 990, .finished(unanswered: 0)),
        (0, 950, 940, .waitUntil(1_000)),
    ])
    func drainSteps(inFlight: Int, now: UInt64, lastArrival: UInt64, expected: ServerLifecycle.DrainStep) {
        #expect(
            ServerLifecycle.drainStep(
                now: now, start: 0, deadline: 1_000, quiet: 100, inFlight: inFlight, lastArrival: lastArrival)
                == expected)
    }
}
