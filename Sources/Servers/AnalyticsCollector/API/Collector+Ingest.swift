import CourierCore
import CourierHTTP

extension Collector {
    /// `POST /v1/batch` and the single-message endpoints: limit, authenticate, validate, commit,
    /// answer. Messages of a batch that fail validation are listed under `rejected` in a `200`;
    /// the others are stored. When every message of a batch fails, nothing is stored and the
    /// answer is a `400` (`batch_rejected`) that still lists them, as Segment's API answers, so a
    /// client never reports an event as sent that was not stored.
    func ingest(_ request: HTTPRequest, singleType: MessageType?) async throws(HTTPError) -> HTTPResponse {
        // The project a refusal is filed under, once the write key is known to be a registered
        // one: an unknown key is text a client chose, of any length, and is never kept.
        var project = RejectionLog.unknownProject
        do throws(HTTPError) {
            try limit(clientLimiter, key: request.clientNetwork, what: "this client")
            // A key in the Authorization header is checked before the body is read, so a wrong key
            // costs no parsing; a key in the body can only be checked after.
            let headerKey = request.basicCredentials?.user
            if let headerKey, !headerKey.isEmpty {
                _ = try authenticate(key: headerKey, project: &project)
                try limit(writeKeyLimiter, key: headerKey, what: "this write key")
            }
            let batch = try parse(request, singleType: singleType, keyChecked: headerKey?.isEmpty == false)
            let writeKey: String
            if let headerKey, !headerKey.isEmpty {
                writeKey = headerKey
            } else {
                writeKey = try authenticate(key: batch.bodyWriteKey, project: &project)
                try limit(writeKeyLimiter, key: writeKey, what: "this write key")
            }
            let messages = batch.prepare(writeKey: writeKey, receivedAt: clock.nowMilliseconds)
            try quotas.check(writeKey: writeKey, bytes: messages.reduce(0) { $0 + $1.payload.count })
            let outcome =
                messages.isEmpty ? CommitOutcome(stored: 0, duplicates: 0) : try await committer.submit(messages)
            quotas.add(writeKey: writeKey, bytes: outcome.storedBytes)
            counters.stored.add(outcome.stored, ordering: .relaxed)
            counters.duplicates.add(outcome.duplicates, ordering: .relaxed)
            counters.rejectedMessages.add(batch.rejected.count, ordering: .relaxed)
            observe(writeKey: writeKey, messages: messages, outcome: outcome, rejected: batch.rejected)
            let rejected = JSONValue.array(batch.rejected.map(\.json))
            if messages.isEmpty && !batch.rejected.isEmpty {
                throw HTTPError(
                    .batchRejected,
                    "none of the batch's \(batch.rejected.count) message(s) could be stored; see rejected",
                    details: ["rejected": rejected])
            }
            var answer: [String: JSONValue] = ["success": true]
            if !batch.rejected.isEmpty { answer["rejected"] = rejected }
            return .json(.object(answer))
        } catch {
            counters.rejected.add(1, ordering: .relaxed)
            // A refused batch's messages were each filed by `observe` already, with their reasons.
            if error.code != .batchRejected {
                rejections.record(
                    writeKey: project, code: error.code.rawValue, message: error.message,
                    atMilliseconds: clock.nowMilliseconds)
            }
            throw error
        }
    }

    /// The request's batch; one whose write key is not yet checked is parsed under
    /// `bodyKeyParses`, a cap for all clients together (anyone can send one, up to the body
    /// limit, before its key is known).
    private func parse(_ request: HTTPRequest, singleType: MessageType?, keyChecked: Bool) throws(HTTPError)
        -> IncomingBatch
    {
        let parse = { [configuration] () throws(HTTPError) -> IncomingBatch in
            try IncomingBatch(body: request.body, singleType: singleType, configuration: configuration)
        }
        if keyChecked { return try parse() }
        guard let batch = try bodyKeyParses.run(parse) else {
            throw HTTPError(
                .overloaded, "too many batches with the write key in the body are being read; retry later",
                retryAfterSeconds: configuration.retryAfterSeconds)
        }
        return batch
    }

    private func limit(_ limiter: RateLimiter?, key: String, what: String) throws(HTTPError) {
        guard let limiter, case .limited(let seconds) = limiter.take(key) else { return }
        throw HTTPError(.rateLimited, "too many requests from \(what); retry later", retryAfterSeconds: seconds)
    }

    /// The write key from HTTP Basic (user part) or the body's `writeKey`, checked for its shape,
    /// then against the known projects (setting `project` to it when it is one) and their kill
    /// switch.
    private func authenticate(key: String?, project: inout String) throws(HTTPError) -> String {
        guard let key, !key.isEmpty else {
            throw HTTPError(.unauthorized, "a write key is required (HTTP Basic user or writeKey)")
        }
        guard WriteKey.isWellFormed(key) else {
            throw HTTPError(
                .unauthorized,
                "a write key is at most \(WriteKey.maximumBytes) bytes, without control characters")
        }
        guard let settings = try settingsCache.settings(writeKey: key) else {
            throw HTTPError(.unauthorized, "unknown write key")
        }
        project = key
        guard settings.enabled else {
            throw HTTPError(.projectDisabled, "collection is disabled for this project")
        }
        return key
    }
}
