/// The engines a server's store runs on, for tests that run one body against each (GRDB runs
/// its tests per database the same way): `@Test(arguments: StoreBackend.allCases)`.
public enum StoreBackend: String, CaseIterable, Sendable, CustomStringConvertible {
    /// The embedded default: a SQLite file in a temporary directory.
    case sqlite
    /// A database of its own on the throwaway server `TestPostgres` starts.
    case postgres

    public var description: String { rawValue }
}
