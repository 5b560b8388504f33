import CourierCore
import Foundation

extension AnalyticsPipeline {
    /// Starts the upload loop unless one is in flight, a retry is scheduled, or sending is stopped.
    func startUpload() {
        guard !stopped, !uploading, retryTimer == nil, !unauthorized, remote.enabled, consent == .granted,
            (queue?.count ?? 0) > 0
        else {
            if !uploading { resumeWaiters() }
            return
        }
        uploading = true
        Task { await self.uploadLoop() }
    }

    /// Sends batches one at a time until the queue is empty or an answer says to stop.
    private func uploadLoop() async {
        defer {
            uploading = false
            if (queue?.count ?? 0) == 0 { perform(policy.queueEmptied()) }
            updateQueueStats()
            resumeWaiters()
        }
        while let queue, !stopped, remote.enabled, consent == .granted, !unauthorized {
            writeBuffer()
            guard let batch = try? queue.peek(maximumCount: sizer.limit, maximumBytes: configuration.maximumBatchBytes),
                !batch.isEmpty
            else { return }
            let request: TransportRequest
            do {
                // Built off the actor: gzip is the costliest step, and events keep flowing meanwhile.
                request = try await Self.makeRequest(
                    batch, writeKey: configuration.writeKey, host: configuration.host,
                    sentAt: clock.nowMilliseconds)
            } catch {
                log("a batch could not be compressed: \(error)", once: "gzip")
                return
            }
            let result = await transport.send(request)
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
                return
            case .disabled:
                var settings = remote
                settings.enabled = false
                apply(settings)
                try? queue.setValue(JSONWriter.string(settings.json), for: "settings")
                lastAttemptFailed = true
                return
            case .retry(let after):
                lastAttemptFailed = true
                stats.update { $0.retries += 1 }
                let delay = after ?? configuration.backoff.delay(attempt: attempt)
                attempt += 1
                scheduleRetry(after: delay)
                return
            }
            updateQueueStats()
        }
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
        body.reserveCapacity(batch.reduce(64) { $0 + $1.payload.count + 1 })
        for (i, event) in batch.enumerated() {
            if i > 0 { body.append(UInt8(ascii: ",")) }
            body.append(contentsOf: event.payload)
        }
        body.append(contentsOf: "],\"sentAt\":\"\(Timestamp.format(milliseconds: sentAt))\"}".utf8)
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
