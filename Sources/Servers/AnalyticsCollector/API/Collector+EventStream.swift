import CourierCore
import CourierHTTP

extension Collector {
    /// Events read per wake of a live stream; a stream further behind skips ahead.
    static let liveStreamPage = 200

    /// Events a stream opened without a cursor shows first, unless it asks for another `last`.
    static let liveStreamReplay = 20

    /// Missed events a resumed stream sends before it moves on to the newest (five pages).
    package static let liveStreamResumeLimit = 1000

    /// `GET /v1/events/stream?writeKey=…[&after=…|&last=…]` (admin): Server-Sent Events, one `data:`
    /// line per stored event (`{"id","event"}`), each with its `id:`. Without a cursor, the stream
    /// first sends the project's newest `last` events (20 by default, at most a page, oldest first)
    /// and then what commits after them, with no gap and no repeat at the seam. With a cursor, the
    /// `after` query or the `Last-Event-ID` header a reconnecting `EventSource` sends (the header
    /// wins, since the browser reconnects to the same URL), it first sends every event stored after
    /// the cursor (up to `liveStreamResumeLimit`, then a `skipped` event) and then what commits.
    /// Live events are read from the store after each commit, at most one read per
    /// `liveStreamInterval`. A reader more than a page behind gets that page as a sample, then a
    /// `skipped` event, and moves on to the newest event: a console samples under load instead of
    /// slowing ingest down by reading everything.
    func eventStream(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        guard let key = request.query["writeKey"], WriteKey.isWellFormed(key) else {
            throw HTTPError(.invalidRequest, "writeKey is required")
        }
        let after = try Self.integer(request.query["after"], name: "after", range: 0...Int64.max)
        let last = try Self.integer(request.query["last"], name: "last", range: 0...Int64(Self.liveStreamPage))
        if after != nil, last != nil { throw HTTPError(.invalidRequest, "pass after or last, not both") }
        let resumeFrom = try Self.lastEventID(request)
        let cursor = resumeFrom ?? after
        guard liveStreams.add(1, ordering: .relaxed).newValue <= configuration.maximumLiveStreams else {
            liveStreams.subtract(1, ordering: .relaxed)
            throw HTTPError(.overloaded, "too many live streams are open", retryAfterSeconds: 5)
        }
        // Subscribed before the store is read: a commit in between both shows in the read and wakes
        // the stream, whose next read starts after what was sent, so nothing is missed or repeated.
        let wakes = commits.subscribe()
        let replayCount = cursor == nil ? Int(last ?? Int64(Self.liveStreamReplay)) : 0
        var start: Int64 = 0
        var replay: [StoredEvent] = []
        var skipped = ""
        do {
            if let cursor {
                (replay, start, skipped) = try missedEvents(writeKey: key, after: cursor)
            } else if replayCount > 0 {
                replay = try store.recentEvents(writeKey: key, limit: replayCount)
                start = replay.last?.id ?? 0
            } else {
                start = try store.latestEventID(writeKey: key)
            }
        } catch {
            liveStreams.subtract(1, ordering: .relaxed)
            throw HTTPError(error)
        }
        let (chunks, output) = AsyncStream<[UInt8]>.makeStream(bufferingPolicy: .bufferingOldest(16))
        let pump = Task { [self] in
            defer {
                liveStreams.subtract(1, ordering: .relaxed)
                output.finish()
            }
            let greeting = "retry: 2000\n: streaming events of one project\n\n"
            output.yield(Array((greeting + Self.serverSentText(replay) + skipped).utf8))
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

    /// The cursor of a reconnecting `EventSource`: `Last-Event-ID`, an id this stream sent.
    private static func lastEventID(_ request: HTTPRequest) throws(HTTPError) -> Int64? {
        guard let text = request.header("last-event-id") else { return nil }
        let trimmed = text.filter { $0 != " " && $0 != "\t" }
        guard !trimmed.isEmpty else { return nil }
        guard let id = Int64(trimmed), id >= 0 else {
            throw HTTPError(.invalidRequest, "Last-Event-ID must be an event id this stream sent")
        }
        return id
    }

    /// Every event stored after `cursor`, page by page up to `liveStreamResumeLimit`, the cursor to
    /// go on from, and a `skipped` event when more were missed than that.
    private func missedEvents(writeKey: String, after cursor: Int64) throws(EventStoreError) -> (
        events: [StoredEvent], next: Int64, skipped: String
    ) {
        var events: [StoredEvent] = []
        var next = cursor
        while events.count < Self.liveStreamResumeLimit {
            let page = try store.events(writeKey: writeKey, after: next, limit: Self.liveStreamPage)
            events += page.events
            next = page.events.last?.id ?? next
            guard page.nextCursor != nil, !page.events.isEmpty else { return (events, next, "") }
        }
        let newest = try store.latestEventID(writeKey: writeKey)
        guard newest > next else { return (events, next, "") }
        return (events, newest, Self.skippedText(from: next, to: newest))
    }

    /// Sends the events after `cursor` and returns the new cursor, or `nil` when the stream should end.
    private func pushEvents(writeKey: String, after cursor: Int64, to output: AsyncStream<[UInt8]>.Continuation)
        -> Int64?
    {
        guard let page = try? store.events(writeKey: writeKey, after: cursor, limit: Self.liveStreamPage) else {
            return cursor
        }
        var text = Self.serverSentText(page.events)
        var next = page.events.last?.id ?? cursor
        // Further behind than a page: this page stands as a sample, and the reader moves to the newest.
        if page.nextCursor != nil, let newest = try? store.latestEventID(writeKey: writeKey), newest > next {
            text += Self.skippedText(from: next, to: newest)
            next = newest
        }
        guard !text.isEmpty else { return next }
        if case .terminated = output.yield(Array(text.utf8)) { return nil }
        return next
    }

    /// The `skipped` event: the ids after `from` up to `to` were not sent.
    private static func skippedText(from: Int64, to: Int64) -> String {
        let skipped = JSONWriter.encode(["from": .int(from), "to": .int(to)])
        return "event: skipped\ndata: \(String(decoding: skipped, as: UTF8.self))\n\n"
    }

    /// Events as Server-Sent Events: `id: N` and `data: {"id":N,"event":{…}}` each.
    private static func serverSentText(_ events: [StoredEvent]) -> String {
        var text = ""
        for event in events {
            let data = JSONWriter.encode(["id": .int(event.id), "event": event.payload])
            text += "id: \(event.id)\ndata: \(String(decoding: data, as: UTF8.self))\n\n"
        }
        return text
    }
}
