/// Limits that bound memory and work per session; defaults match libsignal.
public struct SessionConfiguration: Sendable {
    /// Largest gap between a chain's position and a received counter that is bridged by
    /// deriving and storing skipped keys (libsignal: 2000).
    public var maxForwardJump: UInt32
    /// Skipped message keys kept per receiving chain; the oldest are dropped (libsignal: 2000).
    public var maxSkippedKeysPerChain: Int
    /// Receiving chains kept per session state; the oldest are dropped (libsignal: 5).
    public var maxReceiverChains: Int
    /// Archived session states kept per record (libsignal: 40).
    public var maxArchivedStates: Int

    /// Creates a configuration.
    public init(
        maxForwardJump: UInt32 = 2000, maxSkippedKeysPerChain: Int = 2000, maxReceiverChains: Int = 5,
        maxArchivedStates: Int = 40
    ) {
        self.maxForwardJump = maxForwardJump
        self.maxSkippedKeysPerChain = maxSkippedKeysPerChain
        self.maxReceiverChains = maxReceiverChains
        self.maxArchivedStates = maxArchivedStates
    }

    /// libsignal's limits.
    public static let `default` = SessionConfiguration()
}
