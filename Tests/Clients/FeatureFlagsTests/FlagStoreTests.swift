import CourierCore
import CourierTesting
import FlagServer
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
}
