import CourierCore
import CourierHTTP
import Pagination
import SyncWire

extension SyncService {
    /// `POST /v1/sync/push`: `{"clientID", "operations": [...]}` → `{"results": [...]}`, one
    /// result per operation, all applied in one transaction.
    func push(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let owner = try owner(request)
        let body: JSONValue
        do {
            body = try JSONParser.parse(request.body)
        } catch {
            throw HTTPError(.invalidRequest, "invalid JSON: \(error)")
        }
        guard let clientID = body["clientID"]?.stringValue, !clientID.isEmpty, clientID.utf8.count <= 128,
            !clientID.utf8.contains(0)
        else {
            throw HTTPError(.invalidRequest, "clientID is a string of 1–128 bytes without U+0000")
        }
        guard let items = body["operations"]?.arrayValue else {
            throw HTTPError(.invalidRequest, "operations is an array")
        }
        guard items.count <= configuration.maximumOperationsPerPush else {
            throw HTTPError(.tooManyOperations, "at most \(configuration.maximumOperationsPerPush) operations per push")
        }
        var operations: [SyncOperation] = []
        for item in items {
            do {
                operations.append(try SyncOperation(json: item))
            } catch {
                throw HTTPError(.invalidRequest, error.message)
            }
            if operations.last?.id.utf8.contains(0) == true {
                throw HTTPError(.invalidRequest, "an operation id holds U+0000")
            }
        }
        let results = try withStore {
            try store.push(
                owner: owner, clientID: clientID, operations: operations, now: clock.nowMilliseconds,
                validate: validate)
        }
        if results.contains(where: { if case .applied = $0.outcome { true } else { false } }) {
            pokes.poke(owner: owner)
            pushes.publish(owner)
        }
        return .json(["results": .array(results.map(\.json))])
    }

    /// The built-in rules, then the application's: a reason rejects the operation for good.
    func validate(_ operation: SyncOperation) -> String? {
        guard Self.isName(operation.collection, maximum: 64) else {
            return "a collection is 1–64 letters, digits, '.', '_' or '-'"
        }
        guard !operation.recordID.isEmpty, operation.recordID.utf8.count <= 128, !operation.recordID.utf8.contains(0)
        else {
            return "a record id is 1–128 bytes without U+0000"
        }
        if case .set(let fields) = operation.kind,
            JSONWriter.encode(.object(fields)).count > configuration.maximumOperationBytes
        {
            return "the fields are over \(configuration.maximumOperationBytes) bytes"
        }
        return configuration.validate?(operation)
    }

    /// `GET /v1/sync/changes?since=cursor&limit=n` → `{"changes": [...], "cursor", "hasMore"}`.
    /// No `since` starts from the beginning; 410 `cursor_expired` means "refetch the snapshot".
    func changes(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let owner = try owner(request)
        let query = request.query
        let since = try feedPosition(query["since"])
        var limit = configuration.maximumChangesPerPull
        if let text = query["limit"] {
            guard let value = Int(text), value >= 1, value <= configuration.maximumChangesPerPull else {
                throw HTTPError(
                    .invalidRequest, "limit is a whole number from 1 to \(configuration.maximumChangesPerPull)")
            }
            limit = value
        }
        let page = try withStore { try store.changes(owner: owner, since: since, limit: limit) }
        return .json([
            "changes": .array(page.records.map(\.json)), "cursor": .string(feedSigner.sign(key: [.int(page.position)])),
            "hasMore": .bool(page.hasMore),
        ])
    }

    /// `GET /v1/sync/snapshot` → `{"records": [...], "cursor", "checksum"}`: every live record.
    func snapshot(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let owner = try owner(request)
        let snapshot = try withStore { try store.snapshot(owner: owner) }
        return .json([
            "records": .array(snapshot.records.map(\.json)),
            "cursor": .string(feedSigner.sign(key: [.int(snapshot.position)])),
            "checksum": .string(RecordSetChecksum.of(snapshot.records)),
        ])
    }

    /// `GET /v1/sync/poke?since=cursor&wait=seconds` → `{"changed": Bool}` as soon as a write
    /// after the cursor exists, or after the wait.
    func poke(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        let owner = try owner(request)
        let query = request.query
        let since = try feedPosition(query["since"])
        var wait = configuration.maximumPokeWait
        if let text = query["wait"] {
            guard let seconds = Int(text), seconds >= 0 else {
                throw HTTPError(.invalidRequest, "wait is a whole number of seconds")
            }
            wait = min(wait, .seconds(seconds))
        }
        let store = store
        let changed = await pokes.wait(owner: owner, timeout: wait, clock: clock) {
            ((try? store.latestPosition(owner: owner)) ?? 0) > since
        }
        return .json(["changed": .bool(changed)])
    }

    /// `GET /v1/sync/collections/{collection}/records?before=|after=|around=&limit=`: live
    /// records by id, a keyset page with a signed cursor per row.
    func list(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let owner = try owner(request)
        let collection = request.pathParameters["collection"] ?? ""
        guard Self.isName(collection, maximum: 64) else {
            throw HTTPError(.invalidRequest, "a collection is 1–64 letters, digits, '.', '_' or '-'")
        }
        let page: PageRequest
        do {
            page = try PageRequest.parse(request.query, signer: listSigner, defaultLimit: 50, maximumLimit: 500)
        } catch .cursor(.expired) {
            throw HTTPError(.cursorExpired, "the cursor has expired; page again from the latest rows")
        } catch .cursor(.invalid) {
            throw HTTPError(.invalidCursor, PageCursorError.invalid.description)
        } catch {
            throw HTTPError(.invalidRequest, error.description)
        }
        let rows = try withStore { try listRows(owner: owner, collection: collection, page) }
        return .json(rows.json)
    }

    private func listRows(owner: String, collection: String, _ page: PageRequest) throws -> KeysetPage {
        func fetch(below: String?, above: String?, _ limit: Int) throws -> [SyncRecord] {
            try store.records(owner: owner, collection: collection, below: below, above: above, limit: limit)
        }
        let limit = page.limit
        var older: [SyncRecord] = []
        var newer: [SyncRecord] = []
        var hasMoreBefore = false
        var hasMoreAfter = false
        switch page.position {
        case .latest:
            older = try fetch(below: nil, above: nil, limit + 1)
            hasMoreBefore = older.count > limit
            older = Array(older.prefix(limit))
        case .before(let cursor):
            older = try fetch(below: cursor.key.first?.stringValue ?? "", above: nil, limit + 1)
            hasMoreBefore = older.count > limit
            older = Array(older.prefix(limit))
            hasMoreAfter = true
        case .after(let cursor):
            newer = try fetch(below: nil, above: cursor.key.first?.stringValue ?? "", limit + 1)
            hasMoreAfter = newer.count > limit
            newer = Array(newer.prefix(limit))
            hasMoreBefore = true
        case .around(let id):
            let half = limit / 2
            older = try fetch(below: id, above: nil, half + 1)
            hasMoreBefore = older.count > half
            older = Array(older.prefix(half))
            let anchor = try fetch(below: id + "\u{0}", above: nil, 1).filter { $0.id == id }
            let room = max(0, limit - half - anchor.count)
            let rest = try fetch(below: nil, above: id, room + 1)
            hasMoreAfter = rest.count > room
            newer = anchor + rest.prefix(room)
        }
        let rows = older.reversed() + newer
        return KeysetPage(
            rows: rows.map { (key: [.string($0.id)], node: $0.json) }, hasMoreBefore: hasMoreBefore,
            hasMoreAfter: hasMoreAfter, signer: listSigner)
    }

    /// The feed position inside a `since` cursor; none means the beginning.
    func feedPosition(_ text: String?) throws(HTTPError) -> Int64 {
        guard let text else { return 0 }
        let cursor: PageCursor
        do {
            cursor = try feedSigner.verify(text)
        } catch {
            throw HTTPError(.invalidCursor, error.description)
        }
        guard let position = cursor.key.first?.intValue else {
            throw HTTPError(.invalidCursor, PageCursorError.invalid.description)
        }
        return position
    }

    static func isName(_ text: String, maximum: Int) -> Bool {
        !text.isEmpty && text.utf8.count <= maximum
            && text.utf8.allSatisfy { c in
                (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c == 46 || c == 95 || c == 45
            }
    }
}
