import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import Pagination
import SyncServer
import SyncWire

/// A real sync server whose `messages` collection the paginator pages through; rows are written
/// straight into its store (ids sort as the list does).
struct PaginationHarness {
    let clock = ManualClock(start: Date(timeIntervalSince1970: 1_795_939_200))
    let store: SQLiteSyncStore
    let server: HTTPServer
    private let sequence = SequenceCounter()

    init(cursorAge: Duration = .seconds(3_600)) throws {
        store = try SQLiteSyncStore(path: ":memory:")
        var configuration = SyncServerConfiguration()
        configuration.tokens = ["token": "owner"]
        configuration.listCursorMaximumAge = cursorAge
        let service = try SyncService(configuration: configuration, store: store, clock: clock)
        var router = Router()
        service.mount(on: &router)
        var http = HTTPServerConfiguration()
        http.port = 0
        server = HTTPServer(configuration: http, router: router)
        try server.start()
    }

    var source: RecordPageSource { RecordPageSource(baseURL: server.baseURL, token: "token", collection: "messages") }

    /// Inserts messages with these numbers (id `m-0042`).
    func insert(_ numbers: some Sequence<Int>) throws {
        let operations = numbers.map { n in
            SyncOperation(
                id: Identifier.uuid(), sequence: sequence.next(), collection: "messages", recordID: Self.id(n),
                kind: .set(["n": .int(Int64(n))]), baseVersion: 0, hlc: "")
        }
        _ = try store.push(owner: "owner", clientID: "seed", operations: operations, now: 0) { _ in nil }
    }

    static func id(_ n: Int) -> String {
        let digits = String(n)
        return "m-" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    func stop() { inBackground { [server] in server.stop() } }
}

final class SequenceCounter: @unchecked Sendable {
    // @unchecked: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value: Int64 = 0
    func next() -> Int64 {
        lock.withLock {
            value += 1
            return value
        }
    }
}
