import CourierCore
import CourierPostgres
import CourierTesting
import FlagServer
import Foundation
import Synchronization
import Testing

/// The flag store seam, one body per engine: definitions by subject and key, versions, audit.
@Suite(.timeLimit(.minutes(2)))
struct FlagStoreTests {
    static func flag(_ key: String, value: Bool) -> JSONValue {
        ["key": .string(key), "type": "bool", "value": .bool(value)]
    }

    @Test(arguments: StoreBackend.allCases)
    func changesKeepDefinitionsInKeyOrderWithVersionsAndAudit(backend: StoreBackend) async throws {
        let store = try await FlagHarness.makeStore(backend)
        #expect(try await offPool { try store.environment("production") } == nil)
        let changes = [
            FlagChange(subject: .flag, key: "zebra", action: "set", definition: Self.flag("zebra", value: false)),
            FlagChange(subject: .segment, key: "beta", action: "set", definition: ["key": "beta"]),
            FlagChange(subject: .flag, key: "apple", action: "set", definition: Self.flag("apple", value: false)),
            FlagChange(
                subject: .flag, key: "zebra", action: "kill", definition: Self.flag("zebra", value: true),
                actor: "console"),
        ]
        let versions = try await offPool {
            try changes.enumerated().map { index, change in
                try store.apply(change, environment: "production", atMilliseconds: 1_000 + Int64(index))
            }
        }
        #expect(versions == [1, 2, 3, 4])
        #expect(try await offPool { try store.apply(changes[0], environment: "staging", atMilliseconds: 5_000) } == 1)
        let stored = try #require(try await offPool { try store.environment("production") })
        #expect(stored.version == 4)
        #expect(stored.flags == [Self.flag("apple", value: false), Self.flag("zebra", value: true)])
        #expect(stored.segments == [["key": "beta"]])
        let audit = try await offPool { try store.audit(environment: "production", limit: 3) }
        #expect(audit.map(\.version) == [4, 3, 2])
        #expect(audit.map(\.action) == ["kill", "set", "set"])
        #expect(audit.first?.before == Self.flag("zebra", value: false))
        #expect(audit.first?.after == Self.flag("zebra", value: true))
        #expect(audit.first?.atMilliseconds == 1_003)
        #expect(audit.map(\.actor) == ["console", "admin-api", "admin-api"])
        #expect(audit.first?.json["actor"] == "console")
        #expect(audit.dropFirst().first?.before == nil)
        #expect(audit.last?.subject == "segment")
        #expect(try await offPool { try store.audit(environment: "staging", limit: 10) }.map(\.key) == ["zebra"])
    }

    /// Two instances editing one environment at once: every edit gets its own version, one after
    /// the other, and the audit lists them all in that order.
    @Test func concurrentEditsFromTwoInstancesTakeVersionsInTurn() async throws {
        let url = try await TestPostgres.shared.makeDatabase()
        let stores = [
            try await FlagHarness.makePostgresStore(url: url), try await FlagHarness.makePostgresStore(url: url),
        ]
        let versions = try await withThrowingTaskGroup(of: [Int64].self) { group in
            for (index, store) in stores.enumerated() {
                group.addTask {
                    try await offPool {
                        try (0..<15).map { edit in
                            let key = "flag-\(index)-\(edit)"
                            return try store.apply(
                                FlagChange(
                                    subject: .flag, key: key, action: "set", definition: Self.flag(key, value: true)),
                                environment: "production", atMilliseconds: 1_000)
                        }
                    }
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(versions.sorted() == Array(1...30))
        let audit = try await offPool { try stores[1].audit(environment: "production", limit: 100) }
        #expect(audit.map(\.version) == Array((1...30).reversed()))
        let stored = try await offPool { try stores[0].environment("production") }
        #expect(stored?.version == 30)
        #expect(stored?.flags.count == 30)
    }

    /// An edit's change is made from the environment as stored, at its version; when making it
    /// fails, nothing is stored: neither the version nor an audit row.
    @Test(arguments: StoreBackend.allCases)
    func anEditIsMadeFromWhatIsStoredAndAFailedOneStoresNothing(backend: StoreBackend) async throws {
        struct Refused: Error {}
        let store = try await FlagHarness.makeStore(backend)
        let seen = Mutex<[StoredEnvironment]>([])
        let first = try await offPool {
            try store.edit("production", atMilliseconds: 1_000) { stored in
                seen.withLock { $0.append(stored) }
                return FlagChange(subject: .flag, key: "a", action: "set", definition: Self.flag("a", value: false))
            }
        }
        #expect(first.version == 1)
        #expect(first.change.key == "a")
        await #expect(throws: Refused.self) {
            try await offPool {
                try store.edit("production", atMilliseconds: 2_000) { stored -> FlagChange in
                    seen.withLock { $0.append(stored) }
                    throw Refused()
                }
            }
        }
        await #expect(throws: Refused.self) {
            try await offPool {
                try store.edit("staging", atMilliseconds: 2_000) { _ -> FlagChange in throw Refused() }
            }
        }
        #expect(
            seen.withLock { $0 } == [
                StoredEnvironment(version: 0, flags: [], segments: []),
                StoredEnvironment(version: 1, flags: [Self.flag("a", value: false)], segments: []),
            ])
        #expect(try await offPool { try store.versions() } == ["production": 1])
        #expect(try await offPool { try store.audit(environment: "production", limit: 10) }.map(\.version) == [1])
        let next = try await offPool { try store.apply(first.change, environment: "production", atMilliseconds: 3_000) }
        #expect(next == 2)
    }

    /// One instance kills a flag while another changes its value: the second edit waits for the
    /// first to commit and is made from what it stored, so neither is written over. (With the
    /// read outside the edit's transaction, the kill stored the value it had read before.) The
    /// same holds on a database whose default isolation is stricter than `READ COMMITTED`, where
    /// the second edit would otherwise fail.
    @Test(arguments: [nil, "serializable"])
    func anEditOnAnotherInstanceWaitsForTheOneInProgressAndKeepsIt(defaultIsolation: String?) async throws {
        let url = try await TestPostgres.shared.makeDatabase()
        if let defaultIsolation {
            try await offPool {
                try PostgresConnection(url: url).execute(
                    """
                    DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET default_transaction_isolation = %L',
                        current_database(), '\(defaultIsolation)'); END $$
                    """)
            }
            // New connections (the stores' below) get the stricter default.
            let level = try await offPool {
                try PostgresConnection(url: url).query("SHOW default_transaction_isolation") { $0.text(0) }.first
            }
            #expect(level == defaultIsolation)
        }
        let killing = try await FlagHarness.makePostgresStore(url: url)
        let flipping = try await FlagHarness.makePostgresStore(url: url)
        let original = Self.flag("checkout", value: false)
        _ = try await offPool {
            try killing.apply(
                FlagChange(subject: .flag, key: "checkout", action: "set", definition: original),
                environment: "production", atMilliseconds: 1_000)
        }
        let inside = DispatchSemaphore(value: 0)
        let resume = DispatchSemaphore(value: 0)
        let kill = Task {
            try await offPool {
                try killing.edit("production", atMilliseconds: 2_000) { stored in
                    inside.signal()
                    resume.wait()
                    return Self.changing(stored, action: "kill") { $0["enabled"] = false }
                }
            }
        }
        #expect(await waitOffPool(inside))
        let flipFinished = CompletionFlag()
        let flip = Task {
            defer { flipFinished.set() }
            return try await offPool {
                try flipping.edit("production", atMilliseconds: 3_000) { stored in
                    Self.changing(stored, action: "set") { $0["value"] = true }
                }
            }
        }
        #expect(await poll { await TestPostgres.isWaitingOnALock(url: url, unless: flipFinished) })
        resume.signal()
        let killed = try await kill.value
        let flipped = try await flip.value
        #expect(killed.version == 2)
        #expect(flipped.version == 3)
        #expect(flipped.change.definition["enabled"] == false)
        let stored = try await offPool { try flipping.environment("production") }
        #expect(stored?.flags.first?["enabled"] == false)
        #expect(stored?.flags.first?["value"] == true)
    }

    /// The change of `stored`'s only flag that `edit` makes to its definition.
    static func changing(_ stored: StoredEnvironment, action: String, _ edit: (inout [String: JSONValue]) -> Void)
        -> FlagChange
    {
        guard case .object(var object) = stored.flags.first else {
            return FlagChange(subject: .flag, key: "missing", action: action, definition: [:])
        }
        edit(&object)
        return FlagChange(
            subject: .flag, key: object["key"]?.stringValue ?? "", action: action, definition: .object(object))
    }
}
