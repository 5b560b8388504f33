import CourierCore
import CourierHTTPClient
import Foundation
import SyncWire

/// The sync routes over HTTP with a bearer token.
public struct HTTPSyncTransport: SyncTransport {
    private let baseURL: String
    private let token: String
    private let client: HTTPClient
    private let clock: any Clock

    /// Creates a transport.
    /// - Parameters:
    ///   - baseURL: the server, such as `https://sync.example.com`.
    ///   - token: the bearer token that names the records' owner.
    ///   - client: the HTTP client (its timeout must exceed a poke's wait).
    ///   - clock: the wall clock, for a `Retry-After` given as a date.
    public init(
        baseURL: String, token: String, client: HTTPClient = HTTPClient(timeout: .seconds(60)),
        clock: any Clock = SystemClock()
    ) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.token = token
        self.client = client
        self.clock = clock
    }

    /// `POST /v1/sync/push`.
    public func push(clientID: String, operations: [SyncOperation]) async throws(SyncError) -> [SyncOpResult] {
        let body: JSONValue = ["clientID": .string(clientID), "operations": .array(operations.map(\.json))]
        let json = try await send("POST", "/v1/sync/push", body: JSONWriter.encode(body))
        guard let items = json["results"]?.arrayValue, items.count == operations.count else {
            throw SyncError(.invalidResponse, "the push answer does not hold one result per operation")
        }
        do {
            return try items.map { item throws(SyncWireError) in try SyncOpResult(json: item) }
        } catch {
            throw SyncError(.invalidResponse, error.message)
        }
    }

    /// `GET /v1/sync/changes`.
    public func changes(since cursor: String?, limit: Int) async throws(SyncError) -> SyncPull {
        var path = "/v1/sync/changes?limit=\(limit)"
        if let cursor { path += "&since=" + Self.escape(cursor) }
        let json = try await send("GET", path)
        guard let items = json["changes"]?.arrayValue, let next = json["cursor"]?.stringValue else {
            throw SyncError(.invalidResponse, "the changes answer has no changes or cursor")
        }
        return SyncPull(records: try Self.records(items), cursor: next, hasMore: json["hasMore"]?.boolValue ?? false)
    }

    /// `GET /v1/sync/snapshot`.
    public func snapshot() async throws(SyncError) -> SyncSnapshotAnswer {
        let json = try await send("GET", "/v1/sync/snapshot")
        guard let items = json["records"]?.arrayValue, let cursor = json["cursor"]?.stringValue,
            let checksum = json["checksum"]?.stringValue
        else { throw SyncError(.invalidResponse, "the snapshot answer is incomplete") }
        return SyncSnapshotAnswer(records: try Self.records(items), cursor: cursor, checksum: checksum)
    }

    /// `GET /v1/sync/poke`.
    public func poke(since cursor: String?, wait: Duration) async throws(SyncError) -> Bool {
        var path = "/v1/sync/poke?wait=\(wait.components.seconds)"
        if let cursor { path += "&since=" + Self.escape(cursor) }
        return try await send("GET", path)["changed"]?.boolValue ?? false
    }

    private func send(_ method: String, _ path: String, body: [UInt8]? = nil) async throws(SyncError) -> JSONValue {
        let response: HTTPClientResponse
        do {
            response = try await client.send(
                method, baseURL + path,
                headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/json"], body: body)
        } catch {
            throw SyncError(.transport, "\(error)")
        }
        let json = response.json
        let message = json?["error"]?["message"]?.stringValue ?? "HTTP \(response.status)"
        switch response.status {
        case 200..<300:
            guard let json else { throw SyncError(.invalidResponse, "the answer is not JSON") }
            return json
        case 401: throw SyncError(.unauthorized, message)
        case 410: throw SyncError(.mustRefetch, message)
        // Rate limited (a network's budget of unknown tokens, spent by another client behind
        // the same address): try again later, as after a failure of the server, and not before
        // the time it asked for.
        case 429, 500...:
            let wait = RetryAfter.delay(response.headers["retry-after"], nowMilliseconds: clock.nowMilliseconds)
            throw SyncError(.transport, message, underlying: wait.map(SyncRetryAfter.init))
        default: throw SyncError(.invalidResponse, message)
        }
    }

    private static func records(_ items: [JSONValue]) throws(SyncError) -> [SyncRecord] {
        do {
            return try items.map { item throws(SyncWireError) in try SyncRecord(json: item) }
        } catch {
            throw SyncError(.invalidResponse, error.message)
        }
    }

    private static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~")))
            ?? text
    }
}
