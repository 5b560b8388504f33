import CourierCore
import CourierHTTP

extension Collector {
    /// Events read per wake of a live stream; a stream further behind skips ahead.
    static let liveStreamPage = 200

    /// `GET /v1/events/stream?writeKey=…[&after=…]` (admin): Server-Sent Events, one `data:` line
    /// per stored event (`{"id","event"}`), read from the store after each commit, at most one
    /// read per `liveStreamInterval`. A reader more than a page behind gets that page as a sample,
    /// then a `skipped` event, and moves on to the newest event: a console samples under load
    /// instead of slowing ingest down by reading everything.
    func eventStream(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        guard let key = request.query["writeKey"], WriteKey.isWellFormed(key) else {
            throw HTTPError(.invalidRequest, "writeKey is required")
        }
        let after = try Self.integer(request.query["after"], name: "after", range: 0...Int64.max)
        var start: Int64 = 0
        if let after {
            start = after
        } else {
            do {
                start = try store.latestEventID(writeKey: key)
            } catch {
                throw HTTPError(error)
            }
        }
        guard liveStreams.add(1, ordering: .relaxed).newValue <= configuration.maximumLiveStreams else {
            liveStreams.subtract(1, ordering: .relaxed)
            throw HTTPError(.overloaded, "too many live streams are open", retryAfterSeconds: 5)
        }
        let (chunks, output) = AsyncStream<[UInt8]>.makeStream(bufferingPolicy: .bufferingOldest(16))
        let wakes = commits.subscribe()
        let pump = Task { [self] in
            defer {
                liveStreams.subtract(1, ordering: .relaxed)
                output.finish()
            }
            output.yield(Array("retry: 2000\n: streaming events of one project\n\n".utf8))
            let keepAlive = Task { [self] in
                while !Task.isCancelled {
                    try await clock.sleep(for: configuration.liveStreamKeepAlive)
                    output.yield(Array(": keep-alive\n\n".utf8))
                }
            }
            defer { keepAlive.cancel() }
            var cursor = start
            for await _ in wakes {
                guard !Task.isCancelled, let next = pushEvents(writeKey: key, after: cursor, to: output) else { return }
                cursor = next
                try? await clock.sleep(for: configuration.liveStreamInterval)
            }
        }
        output.onTermination = { _ in pump.cancel() }
        return HTTPResponse(
            status: 200,
            headers: [
                ("Content-Type", "text/event-stream"), ("Cache-Control", "no-store"), ("X-Accel-Buffering", "no"),
            ], bodyStream: chunks)
    }

    /// Sends the events after `cursor` and returns the new cursor, or `nil` when the stream should end.
    private func pushEvents(writeKey: String, after cursor: Int64, to output: AsyncStream<[UInt8]>.Continuation)
        -> Int64?
    {
        guard let page = try? store.events(writeKey: writeKey, after: cursor, limit: Self.liveStreamPage) else {
            return cursor
        }
        var text = ""
        var next = cursor
        for event in page.events {
            let data = JSONWriter.encode(["id": .int(event.id), "event": event.payload])
            text += "id: \(event.id)\ndata: \(String(decoding: data, as: UTF8.self))\n\n"
            next = event.id
        }
        // Further behind than a page: this page stands as a sample, and the reader moves to the newest.
        if page.nextCursor != nil, let newest = try? store.latestEventID(writeKey: writeKey), newest > next {
            let skipped = JSONWriter.encode(["from": .int(next), "to": .int(newest)])
            text += "event: skipped\ndata: \(String(decoding: skipped, as: UTF8.self))\n\n"
            next = newest
        }
        guard !text.isEmpty else { return next }
        if case .terminated = output.yield(Array(text.utf8)) { return nil }
        return next
    }
}
