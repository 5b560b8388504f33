import CourierCore
import CourierHTTP

extension Collector {
    /// `GET /v1/projects/{writeKey}/settings`: the remote configuration SDKs fetch.
    func getSettings(_ request: HTTPRequest) -> HTTPResponse {
        let key = request.pathParameters["writeKey"] ?? ""
        do throws(CollectorError) {
            guard let settings = try settingsCache.settings(writeKey: key) else {
                throw CollectorError(.notFound, "unknown write key", status: 404)
            }
            return .json(settings.json, headers: [("Cache-Control", "max-age=60")])
        } catch {
            return error.response()
        }
    }

    /// `PUT /v1/projects/{writeKey}/settings` (admin): merges the members given into the settings,
    /// creating the project if needed.
    func putSettings(_ request: HTTPRequest) -> HTTPResponse {
        let key = request.pathParameters["writeKey"] ?? ""
        do throws(CollectorError) {
            try authorizeAdmin(request)
            let patch: JSONValue
            do {
                patch = try JSONParser.parse(request.body)
            } catch {
                throw CollectorError(.invalidJSON, "invalid JSON: \(error)", status: 400)
            }
            let next = try settingsCache.update(writeKey: key) { current throws(CollectorError) in
                try current.applying(patch)
            }
            return .json(next.json)
        } catch {
            return error.response()
        }
    }

    /// `GET /v1/events?writeKey=…&after=…&limit=…` (admin): stored events, oldest first, with a
    /// keyset cursor.
    func listEvents(_ request: HTTPRequest) -> HTTPResponse {
        do throws(CollectorError) {
            try authorizeAdmin(request)
            let query = request.query
            guard let key = query["writeKey"], !key.isEmpty else {
                throw CollectorError(.invalidRequest, "writeKey is required", status: 400)
            }
            let after = try Self.integer(query["after"], name: "after", range: 0...Int64.max) ?? 0
            let limit = try Self.integer(query["limit"], name: "limit", range: 1...1000) ?? 100
            let page = try store.events(writeKey: key, after: after, limit: Int(limit))
            return .json([
                "events": .array(page.events.map(\.payload)),
                "nextCursor": page.nextCursor.map { .string(String($0)) } ?? .null,
                "lastCursor": .string(String(page.events.last?.id ?? after)),
            ])
        } catch {
            return error.response()
        }
    }

    private func authorizeAdmin(_ request: HTTPRequest) throws(CollectorError) {
        guard let expected = configuration.adminToken else {
            throw CollectorError(.forbidden, "the admin API is disabled (no admin token configured)", status: 403)
        }
        guard let token = request.bearerToken, Self.constantTimeEquals(token, expected) else {
            throw CollectorError(.forbidden, "a valid admin token is required (Authorization: Bearer …)", status: 403)
        }
    }

    private static func integer(_ text: String?, name: String, range: ClosedRange<Int64>) throws(CollectorError) -> Int64? {
        guard let text else { return nil }
        guard let value = Int64(text), range.contains(value) else {
            throw CollectorError(.invalidRequest, "\(name) must be an integer in \(range)", status: 400)
        }
        return value
    }

    private static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for i in 0..<x.count { difference |= x[i] ^ y[i] }
        return difference == 0
    }
}
