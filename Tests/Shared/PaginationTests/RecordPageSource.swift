import CourierCore
import CourierHTTP
import Foundation
import Pagination
import Synchronization

/// Pages of the sync server's list endpoint, `GET /v1/sync/collections/{collection}/records`.
struct RecordPageSource: PageSource {
    let baseURL: String
    let token: String
    let collection: String
    let client = HTTPClient(timeout: .seconds(30))

    struct Failure: Error, CustomStringConvertible {
        let status: Int
        let code: String
        var description: String { "\(status) \(code)" }
    }

    func load(_ load: PageLoad, limit: Int) async throws -> Page<String> {
        var query = "limit=\(limit)"
        switch load {
        case .latest: break
        case .before(let cursor): query += "&before=" + cursor
        case .after(let cursor): query += "&after=" + cursor
        case .around(let id): query += "&around=" + id
        }
        let response = try await client.send(
            "GET", "\(baseURL)/v1/sync/collections/\(collection)/records?\(query)",
            headers: ["Authorization": "Bearer \(token)"])
        let json = response.json
        if response.status == 410 { throw PageSourceError.cursorExpired }
        guard response.status == 200, let items = json?["items"]?.arrayValue else {
            throw Failure(status: response.status, code: json?["error"]?["code"]?.stringValue ?? "")
        }
        let edges = items.compactMap { item -> PageEdge<String>? in
            guard let cursor = item["cursor"]?.stringValue, let id = item["node"]?["id"]?.stringValue else {
                return nil
            }
            return PageEdge(cursor: cursor, item: id)
        }
        return Page(
            edges: edges, hasMoreBefore: json?["hasMoreBefore"]?.boolValue ?? false,
            hasMoreAfter: json?["hasMoreAfter"]?.boolValue ?? false)
    }
}

/// A source that, while told to hold, keeps each load waiting until the test opens the gate;
/// it counts the loads that started.
final class GatedSource<Inner: PageSource>: PageSource, Sendable {
    typealias Item = Inner.Item
    private let inner: Inner
    private let state = Mutex<(started: Int, waiting: [CheckedContinuation<Void, Never>], holding: Bool)>(
        (0, [], false))

    init(_ inner: Inner) { self.inner = inner }

    var started: Int { state.withLock { $0.started } }

    /// Loads from now on wait for `open()`.
    func hold() { state.withLock { $0.holding = true } }

    /// Lets waiting loads (and later ones) through.
    func open() {
        let waiting = state.withLock { state in
            state.holding = false
            defer { state.waiting = [] }
            return state.waiting
        }
        waiting.forEach { $0.resume() }
    }

    func load(_ load: PageLoad, limit: Int) async throws -> Page<Item> {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state in
                state.started += 1
                if !state.holding { return true }
                state.waiting.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
        return try await inner.load(load, limit: limit)
    }
}
