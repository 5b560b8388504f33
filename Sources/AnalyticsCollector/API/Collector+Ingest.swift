import CourierCore
import CourierHTTP

extension Collector {
    /// `POST /v1/batch` and the single-message endpoints: authenticate, validate, commit, answer.
    func ingest(_ request: HTTPRequest, singleType: MessageType?) -> HTTPResponse {
        do throws(CollectorError) {
            // A key in the Authorization header is checked before the body is read, so a wrong key
            // costs no parsing; a key in the body can only be checked after.
            let headerKey = request.basicCredentials?.user
            if let headerKey, !headerKey.isEmpty { _ = try authenticate(key: headerKey) }
            let batch = try IncomingBatch(body: request.body, singleType: singleType, configuration: configuration)
            let writeKey = try authenticate(key: headerKey?.isEmpty == false ? headerKey : batch.bodyWriteKey)
            let messages = batch.prepare(writeKey: writeKey, receivedAt: clock.nowMilliseconds)
            let outcome = try committer.submit(messages)
            counters.stored.add(outcome.stored, ordering: .relaxed)
            counters.duplicates.add(outcome.duplicates, ordering: .relaxed)
            return .json(["success": true])
        } catch {
            counters.rejected.add(1, ordering: .relaxed)
            return error.response(retryAfterSeconds: error.code == .overloaded ? configuration.retryAfterSeconds : nil)
        }
    }

    /// The write key from HTTP Basic (user part) or the body's `writeKey`, checked against the
    /// known projects and their kill switch.
    private func authenticate(key: String?) throws(CollectorError) -> String {
        guard let key, !key.isEmpty else {
            throw CollectorError(.unauthorized, "a write key is required (HTTP Basic user or writeKey)", status: 401)
        }
        guard let settings = try settingsCache.settings(writeKey: key) else {
            throw CollectorError(.unauthorized, "unknown write key", status: 401)
        }
        guard settings.enabled else {
            throw CollectorError(.projectDisabled, "collection is disabled for this project", status: 403)
        }
        return key
    }
}
