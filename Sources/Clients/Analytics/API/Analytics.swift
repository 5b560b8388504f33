import CourierCore
import Foundation
import Synchronization

/// The analytics SDK: a persisted, batched, consent-gated queue that uploads to a Segment-style
/// collector and never harms its host app.
///
/// Every public method copies its arguments, hands them to one actor and returns: no disk, no
/// network and no lock the caller waits on. Safe from any thread; instances with different write
/// keys are independent.
///
/// One instance per write key and storage directory writes its queue file: the newest. Making
/// a new one (configuring again, or replacing the instance the app holds) retires the previous
/// one, whose later calls are dropped as `replaced`; the new one carries on with the saved
/// consent and ids once the previous one has written what it was given and closed the file.
/// Where another process holds the folder's lock (macOS and Linux), the instance queues in
/// memory and says so in its log.
public final class Analytics: Sendable {
    private let mailbox: Mailbox
    private let recorder = StatsRecorder()
    private let clock: any Clock
    /// The configuration it was created with.
    public let configuration: AnalyticsConfiguration

    private static let sharedInstance = Mutex<Analytics?>(nil)

    /// Creates an instance. Storage is opened and remote settings are fetched afterwards, off the
    /// caller's path.
    public init(configuration: AnalyticsConfiguration) {
        self.configuration = configuration
        clock = configuration.clock
        let mailbox = Mailbox(capacity: configuration.maximumPendingCalls)
        self.mailbox = mailbox
        // The pipeline is made on its own task, not here: its state's first construction in a
        // process (the storage folder's name, the identity's UUID, the id generator) costs a
        // few hundred microseconds that the app's launch thread should not pay.
        // One writer per queue file: this instance takes its write key's file over from the one
        // it replaces (a search of a short list; the file is opened off this thread).
        let claim = QueueClaims.process.claim(QueueClaims.Key(configuration), for: mailbox)
        let recorder = recorder
        Task.detached(priority: .utility) {
            await AnalyticsPipeline(configuration: configuration, stats: recorder, claim: claim).run(mailbox)
        }
    }

    deinit { mailbox.close() }

    /// Configures the shared instance (replacing any previous one) and returns it. A previous
    /// instance with the same write key and storage directory is retired (its later calls are
    /// dropped as `replaced`), as it is when any new instance with that key is made: making one
    /// with `init(configuration:)` and the shared instance's key retires `shared`.
    /// - Parameters:
    ///   - writeKey: the project's write key.
    ///   - host: the collector's base URL.
    ///   - options: changes to the default configuration.
    @discardableResult
    public static func configure(
        writeKey: String, host: String,
        options: (inout AnalyticsConfiguration) -> Void = { _ in }
    ) -> Analytics {
        var configuration = AnalyticsConfiguration(writeKey: writeKey, host: host)
        options(&configuration)
        // Made under the lock: two threads configuring at once leave `shared` on the instance
        // that claimed the queue last, the one not retired.
        return sharedInstance.withLock { shared in
            let analytics = Analytics(configuration: configuration)
            shared = analytics
            return analytics
        }
    }

    /// The instance set by `configure(writeKey:host:options:)`, if any.
    public static var shared: Analytics? { sharedInstance.withLock { $0 } }

    /// Records an action the user took.
    public func track(_ name: String, properties: [String: JSONValue] = [:]) {
        submit(.track, name: name, properties: properties)
    }

    /// Records a screen view.
    public func screen(_ name: String, properties: [String: JSONValue] = [:]) {
        submit(.screen, name: name, properties: properties)
    }

    /// Says who the user is; later events carry `userId` (and traits are kept across launches).
    public func identify(userId: String, traits: [String: JSONValue] = [:]) {
        submit(.identify, name: nil, properties: traits, extra: EventExtra(userId: userId))
    }

    /// Associates the user with a group (company, team…).
    public func group(_ groupId: String, traits: [String: JSONValue] = [:]) {
        submit(.group, name: nil, properties: traits, extra: EventExtra(groupId: groupId))
    }

    /// Links the current id (`userId`, else `anonymousId`) to `userId`, for example after sign-up;
    /// later events carry the new `userId`.
    public func alias(_ userId: String) {
        submit(.alias, name: nil, properties: [:], extra: EventExtra(userId: userId))
    }

    /// Grants or revokes consent; persists across launches. Before consent the SDK collects nothing
    /// and makes no request. Revoking purges everything not yet sent and forgets the user (ids and
    /// traits); a later grant starts with a new `anonymousId`.
    public func setConsent(_ consent: Consent) { send(.setConsent(consent)) }

    /// Asks for an upload now (fire-and-forget).
    public func flush() { send(.flush) }

    /// Logout: a new `anonymousId`; `userId` and traits are cleared.
    public func reset() { send(.reset) }

    /// Waits until everything tracked before this call was uploaded, or an upload failed.
    public func flushed() async -> FlushResult {
        await withCheckedContinuation { continuation in
            if mailbox.post(.flushed(continuation)) != .accepted {
                continuation.resume(returning: FlushResult(remaining: 0, blocked: true))
            }
        }
    }

    /// For command-line tools at exit: blocks the calling thread until the queue is uploaded or
    /// `timeout` passes. Never call it on an app's main thread, nor from async code (use
    /// `flushed()` there): it would block a thread of the concurrency pool.
    /// - Returns: the queue's state, or `nil` when the deadline passed first.
    @available(*, noasync, message: "blocks its thread; await flushed() in async code")
    public func drain(timeout: Duration) -> FlushResult? {
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<FlushResult?>(nil)
        Task.detached {
            let r = await self.flushed()
            result.withLock { $0 = r }
            done.signal()
        }
        let nanos = Int(min(max(0, timeout.wholeNanoseconds), 86_400_000_000_000))
        guard done.wait(timeout: .now() + .nanoseconds(nanos)) == .success else { return nil }
        return result.withLock { $0 }
    }

    /// The app moved to the background: write and upload now.
    public func applicationDidEnterBackground() { send(.lifecycle(.background)) }

    /// The app came back; after 5 minutes away a new session starts.
    public func applicationWillEnterForeground() { send(.lifecycle(.foreground)) }

    /// The app is terminating: write the in-memory buffer.
    public func applicationWillTerminate() { send(.lifecycle(.terminate)) }

    /// Counters: tracked, stored, sent, dropped by reason, retries, queue size.
    public var stats: AnalyticsStats { recorder.snapshot }

    /// The folder inside `storageDirectory` that holds `writeKey`'s queue (tests and tools).
    package static func storageFolderName(writeKey: String) -> String { AnalyticsPipeline.folderName(for: writeKey) }

    /// How many times remote settings were fetched and applied: lets tests wait for them.
    package var remoteSettingsApplied: Int { recorder.remoteSettingsApplied }

    /// How many settings fetches the pipeline has decided to start: a test reads it after
    /// `flushed()` (which the pipeline answers after its start) to know that none was started.
    package var settingsFetchesStarted: Int { recorder.settingsFetchesStarted }

    /// The most calls the pipeline has handled in one turn on its actor (a test hook).
    package var longestPipelineTurn: Int { recorder.longestTurn }

    private func submit(
        _ kind: AnalyticsEvent.Kind, name: String?, properties: [String: JSONValue],
        extra: EventExtra = EventExtra()
    ) {
        recorder.update { $0.tracked += 1 }
        send(.event(kind: kind, name: name, properties: properties, timestamp: clock.nowMilliseconds, extra: extra))
    }

    private func send(_ command: Command) {
        switch mailbox.post(command) {
        case .accepted: break
        case .full, .closed: recorder.drop(.overflow)
        case .replaced: recorder.drop(.replaced)
        }
    }
}
