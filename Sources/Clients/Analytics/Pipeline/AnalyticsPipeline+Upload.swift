import CourierCore
import Foundation

extension AnalyticsPipeline {
    /// Sends queued batches, keeping up to `maximumUploadsInFlight` in flight, unless a retry is
    /// scheduled, a batch must be sent again first, or sending is stopped.
    ///
    /// Batches are cut from the queue in `track` order and sent as they are cut; each is deleted
    /// when its own answer says so. When an answer keeps its batch (retry, split), no further batch
    /// is started; once the batches in flight have answered, the queue is read again from its
    /// oldest event, so only batches that were not acknowledged are sent again (at most the ones
    /// that were in flight).
    func startUpload() {
        guard !released, retryTimer == nil, !unauthorized, remote.enabled, consent == .granted, upload.resend == nil,
            let queue
        else {
            if !uploading { resumeWaiters() }
            return
        }
        writeBuffer()
        while upload.inFlight < max(1, configuration.maximumUploadsInFlight) {
            guard
                let batch = try? queue.peek(
                    after: upload.sentThrough, maximumCount: sizer.limit, maximumBytes: configuration.maximumBatchBytes),
                let last = batch.last
            else { break }
            upload.sentThrough = last.id
            upload.inFlight += 1
            Task { await self.send(batch) }
        }
        if !uploading { uploadsSettled() }
    }

    /// Whether any batch is in flight.
    var uploading: Bool { upload.inFlight > 0 }

    /// Uploads one batch and acts on its answer.
    private func send(_ batch: [QueuedEvent]) async {
        let outcome = await deliver(batch)
        upload.inFlight -= 1
        switch outcome {
        case .next:
            break
        case .resend(let after):
            // The earliest instruction wins: a split (now) is not delayed by a retry's backoff.
            if let after, case .some(.some(let current)) = upload.resend {
                upload.resend = .some(min(after, current))
            } else if upload.resend == nil || after == nil {
                upload.resend = .some(after)
            }
        case .stop:
            upload.resend = nil
            upload.stopped = true
        }
        updateQueueStats()
        if upload.inFlight == 0 {
            let resend = upload.resend
            let stoppedHere = upload.stopped
            upload = UploadState()
            if stoppedHere {
                uploadsSettled()
            } else if let resend, let after = resend {
                // A batch waits for its retry: the round failed, whichever answer came last.
                lastAttemptFailed = true
                scheduleRetry(after: after)
                uploadsSettled()
            } else {
                // All answered (or a split asks for smaller batches now): read the queue again
                // from its oldest event.
                startUpload()
            }
        } else if upload.resend == nil && !upload.stopped {
            startUpload()
        }
    }

    /// What the upload loop does after one batch's answer.
    private enum BatchOutcome {
        /// The batch left the queue; go on.
        case next
        /// The batch stays queued; send it again after the others in flight answer (after the
        /// delay, when there is one).
        case resend(after: Duration?)
        /// Sending stops (401, kill switch, unreadable batch).
        case stop
    }

    /// Called when nothing is in flight: tells waiters and the flush policy.
    private func uploadsSettled() {
        if (queue?.count ?? 0) == 0 { perform(policy.queueEmptied()) }
        updateQueueStats()
        resumeWaiters()
    }

    private func deliver(_ batch: [QueuedEvent]) async -> BatchOutcome {
        // The queue is read again after the answer, not held across the awaits: a released
        // instance closes its file meanwhile for the instance that replaces it.
        guard queue != nil else { return .stop }
        let request: TransportRequest
        do {
            // Built off the actor: gzip is the costliest step, and events keep flowing meanwhile.
            request = try await Self.makeRequest(
                batch, writeKey: configuration.writeKey, host: configuration.host, sentAt: clock.nowMilliseconds)
        } catch {
            log("a batch could not be compressed: \(error)", once: "gzip")
            return .stop
        }
        let result = await transport.send(request)
        guard let queue else { return .stop }
        lastUpload = UploadAttempt(url: request.url, events: batch.count, result: result)
        switch UploadDecision.decide(result, batchCount: batch.count, now: clock.nowMilliseconds) {
        case .delivered(let rejected):
            // The collector stored the rest; the rejected ones can never be, so the whole
            // batch leaves the queue either way.
            try? queue.delete(batch)
            stats.update { $0.sent += batch.count - rejected }
            stats.drop(.rejected, count: rejected)
            attempt = 0
            lastAttemptFailed = false
            sizer.resolved(batch.count)
        case .poison(let status):
            try? queue.delete(batch)
            stats.drop(.poison, count: batch.count)
            log(
                "the collector refused \(batch.count == 1 ? "an event" : "a batch") as invalid (\(status)); it was dropped"
            )
            lastAttemptFailed = false
            sizer.resolved(batch.count)
        case .split:
            sizer.refused(batch.count)
            return .resend(after: nil)
        case .dropOversized:
            try? queue.delete(batch)
            stats.drop(.tooLarge, count: batch.count)
            sizer.resolved(batch.count)
        case .unauthorized:
            unauthorized = true
            lastAttemptFailed = true
            log(
                "the collector does not know this write key (401); sending stopped until the SDK is configured again",
                once: "401")
            return .stop
        case .disabled:
            // The kill switch is on at the collector: this batch, and what is queued behind it,
            // were tracked before this SDK knew, and are dropped like what is tracked from now on
            // (docs/analytics-sdk.md), so turning the switch off later does not let them through.
            // Batches already in flight drop themselves on their own 403.
            var settings = remote
            settings.enabled = false
            apply(settings)
            try? queue.setValue(JSONWriter.string(settings.json), for: "settings")
            try? queue.delete(batch)
            let behind = (try? queue.delete(after: upload.sentThrough)) ?? 0
            stats.drop(.disabled, count: batch.count + behind)
            lastAttemptFailed = true
            return .stop
        case .retry(let after):
            lastAttemptFailed = true
            stats.update { $0.retries += 1 }
            let delay = after ?? configuration.backoff.delay(attempt: attempt)
            attempt += 1
            return .resend(after: delay)
        }
        return .next
    }

    private func scheduleRetry(after delay: Duration) {
        retryTimer?.cancel()
        retryTimer = Task { [clock] in
            do { try await clock.sleep(for: delay) } catch { return }
            self.retryFired()
        }
    }

    private func retryFired() {
        retryTimer = nil
        startUpload()
    }

    /// `{"batch":[…],"sentAt":…}` from the stored payloads as they are, gzipped.
    private nonisolated static func makeRequest(
        _ batch: [QueuedEvent], writeKey: String, host: String,
        sentAt: Int64
    ) async throws -> TransportRequest {
        var body: [UInt8] = Array("{\"batch\":[".utf8)
        let context = batch.first?.context
        body.reserveCapacity(batch.reduce(64 + (context?.count ?? 0)) { $0 + $1.payload.count + 1 })
        for (i, event) in batch.enumerated() {
            if i > 0 { body.append(UInt8(ascii: ",")) }
            body.append(contentsOf: event.payload)
        }
        body.append(contentsOf: "]".utf8)
        // The batch's shared context, once (`peek` gives batches whose events share one).
        if let context {
            body.append(contentsOf: ",\"context\":".utf8)
            body.append(contentsOf: context)
        }
        body.append(contentsOf: ",\"sentAt\":\"\(Timestamp.format(milliseconds: sentAt))\"}".utf8)
        let credentials = Array("\(writeKey):".utf8)
        return TransportRequest(
            method: "POST", url: host + "/v1/batch",
            headers: [
                "Content-Type": "application/json", "Content-Encoding": "gzip",
                "Authorization": "Basic " + Data(credentials).base64EncodedString(),
            ],
            // Level 1: JSON still shrinks several-fold, at a fraction of level 6's CPU on a phone.
            body: try Gzip.compress(body, level: 1))
    }
}

/// The uploads of one round: from the first batch sent until none is in flight.
struct UploadState {
    /// Batches sent and not answered.
    var inFlight = 0
    /// The queue id of the newest event sent in this round: the next batch starts after it.
    var sentThrough: Int64 = 0
    /// Set when an answer kept its batch: `.some(nil)` to send it again at once, `.some(delay)`
    /// after a backoff. No new batch starts meanwhile.
    var resend: Duration??
    /// Set when an answer stopped sending (401, kill switch).
    var stopped = false
}
