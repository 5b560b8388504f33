import CourierCore
import CourierHTTP

/// The admin routes that show what the collector is doing: projects with their recent volume,
/// volume by type, refusals and settings history. The console and the CLI both read these.
extension Collector {
    /// Adds them to `admin`, a group under `/v1` behind the admin token.
    func mountObservation(on admin: inout Router) {
        admin.add("GET", "/projects") { [self] in try listProjects($0) }
        admin.add("GET", "/projects/{writeKey}/volume") { [self] in try projectVolume($0) }
        admin.add("GET", "/projects/{writeKey}/rejections") { [self] in try projectRejections($0) }
        admin.add("GET", "/projects/{writeKey}/settings/history") { [self] in try projectSettingsHistory($0) }
        admin.add("GET", "/events/stream") { [self] request, _ in try eventStream(request) }
    }

    /// Counts a committed batch into the volume and refusal aggregates and wakes live streams, here
    /// and on the other instances.
    func observe(writeKey: String, messages: [PreparedMessage], outcome: CommitOutcome, rejected: [RejectedMessage]) {
        let now = clock.nowMilliseconds
        if outcome.stored > 0 {
            // Which messages were duplicates is not reported per message: when some were, the
            // stored count is spread over the batch's types in order.
            var remaining = outcome.stored
            var byType: [String: Int] = [:]
            for message in messages where remaining > 0 {
                byType[message.type, default: 0] += 1
                remaining -= 1
            }
            volume.record(writeKey: writeKey, countsByType: byType, atMilliseconds: now)
            commits.notify()
            commitWakeUps.publish(writeKey)
        }
        if outcome.duplicates > 0 {
            rejections.record(
                writeKey: writeKey, code: "duplicate", message: "\(outcome.duplicates) duplicate messageId(s) dropped",
                count: outcome.duplicates, atMilliseconds: now)
        }
        for message in rejected {
            rejections.record(
                writeKey: writeKey, code: message.error.code.rawValue,
                message: "batch[\(message.index)]: \(message.error.message)", atMilliseconds: now)
        }
    }

    /// `GET /v1/projects` (admin): every project with its settings and events per minute for the
    /// last hour (`firstMinute`: the start of the first, in milliseconds since 1970).
    func listProjects(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let usage: [String: Int64]
        do {
            usage = try store.usage()
        } catch {
            throw HTTPError(error)
        }
        let now = clock.nowMilliseconds
        var projects: [JSONValue] = []
        for (key, bytes) in usage.sorted(by: { $0.key < $1.key }) {
            let settings = try settingsCache.settings(writeKey: key) ?? ProjectSettings()
            let volume = try currentVolume(writeKey: key, atMilliseconds: now)
            projects.append([
                "writeKey": .string(key), "storedBytes": .int(bytes), "settings": settings.json,
                "firstMinute": .int(volume.firstMinute),
                "perMinute": .array(volume.totalPerMinute.map { .int(Int64($0)) }),
            ])
        }
        return .json(["projects": .array(projects)])
    }

    /// `GET /v1/projects/{writeKey}/volume` (admin): events per minute (last hour) and per hour
    /// (last day) by type.
    func projectVolume(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let key = try knownProject(request)
        return .json(try currentVolume(writeKey: key, atMilliseconds: clock.nowMilliseconds).json)
    }

    /// `writeKey`'s volume: every instance's, read from PostgreSQL after this one's is flushed
    /// there, or this process's on SQLite.
    private func currentVolume(writeKey: String, atMilliseconds now: Int64) throws(HTTPError) -> ProjectVolume {
        guard let sharedObservations else { return volume.volume(writeKey: writeKey, atMilliseconds: now) }
        do throws(EventStoreError) {
            try flushObservations()
            return try storing { try sharedObservations.volume(writeKey: writeKey, atMilliseconds: now) }
        } catch {
            throw HTTPError(error)
        }
    }

    /// `GET /v1/projects/{writeKey}/rejections` (admin): refusal counts by code and the last reasons.
    func projectRejections(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let key = try knownProject(request)
        guard let sharedObservations else { return .json(rejections.json(writeKey: key)) }
        do throws(EventStoreError) {
            try flushObservations()
            return .json(
                RejectionLog.json(
                    try storing { try sharedObservations.rejections(writeKey: key, keep: rejections.keep) }))
        } catch {
            throw HTTPError(error)
        }
    }

    /// `GET /v1/projects/{writeKey}/settings/history` (admin): settings changes, newest first.
    func projectSettingsHistory(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        return .json(settingsHistory.json(writeKey: try knownProject(request)))
    }

    private func knownProject(_ request: HTTPRequest) throws(HTTPError) -> String {
        let key = request.pathParameters["writeKey"] ?? ""
        guard WriteKey.isWellFormed(key), try settingsCache.settings(writeKey: key) != nil else {
            throw HTTPError(.notFound, "unknown write key")
        }
        return key
    }
}
