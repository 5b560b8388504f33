import CourierCore
import CourierHTTP

extension Collector {
    /// `GET /v1/projects/{writeKey}/settings`: the remote configuration SDKs fetch.
    func getSettings(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        try Self.settingsAnswer(try settingsCache.settings(writeKey: try Self.settingsKey(request)))
    }

    /// The settings' answer when the cache holds them (or knows the key is unknown), on the
    /// engine's loop; `nil` sends the request to `getSettings`, which reads the store.
    func cachedSettings(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse? {
        guard let cached = settingsCache.cached(writeKey: try Self.settingsKey(request)) else { return nil }
        return try Self.settingsAnswer(cached)
    }

    /// The write key in the path; a malformed one is answered as unknown.
    private static func settingsKey(_ request: HTTPRequest) throws(HTTPError) -> String {
        let key = request.pathParameters["writeKey"] ?? ""
        guard WriteKey.isWellFormed(key) else { throw HTTPError(.notFound, "unknown write key") }
        return key
    }

    private static func settingsAnswer(_ settings: ProjectSettings?) throws(HTTPError) -> HTTPResponse {
        guard let settings else { throw HTTPError(.notFound, "unknown write key") }
        return .json(settings.json, headers: [("Cache-Control", "max-age=60")])
    }

    /// `PUT /v1/projects/{writeKey}/settings` (admin): merges the members given into the settings,
    /// creating the project if needed.
    func putSettings(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let key = request.pathParameters["writeKey"] ?? ""
        guard WriteKey.isWellFormed(key) else {
            throw HTTPError(
                .invalidRequest,
                "a write key must be 1–\(WriteKey.maximumBytes) bytes without control characters")
        }
        let patch: JSONValue
        do {
            patch = try JSONParser.parse(request.body)
        } catch {
            throw HTTPError(.invalidJSON, "invalid JSON: \(error)")
        }
        var previous = ProjectSettings()
        let next = try settingsCache.update(writeKey: key) { current throws(HTTPError) in
            previous = current
            return try current.applying(patch)
        }
        settingsHistory.record(writeKey: key, before: previous, after: next, atMilliseconds: clock.nowMilliseconds)
        return .json(next.json)
    }

    /// `GET /v1/events?writeKey=…&after=…&limit=…` (admin): stored events, oldest first, with a
    /// keyset cursor.
    func listEvents(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let query = request.query
        guard let key = query["writeKey"], !key.isEmpty else {
            throw HTTPError(.invalidRequest, "writeKey is required")
        }
        let after = try Self.integer(query["after"], name: "after", range: 0...Int64.max) ?? 0
        let limit = try Self.integer(query["limit"], name: "limit", range: 1...1000) ?? 100
        let page: EventPage
        do {
            page = try store.events(writeKey: key, after: after, limit: Int(limit))
        } catch {
            throw HTTPError(error)
        }
        return .json([
            "events": .array(page.events.map(\.payload)),
            "nextCursor": page.nextCursor.map { .string(String($0)) } ?? .null,
            "lastCursor": .string(String(page.events.last?.id ?? after)),
        ])
    }

    static func integer(_ text: String?, name: String, range: ClosedRange<Int64>) throws(HTTPError)
        -> Int64?
    {
        guard let text else { return nil }
        guard let value = Int64(text), range.contains(value) else {
            throw HTTPError(.invalidRequest, "\(name) must be an integer in \(range)")
        }
        return value
    }
}
