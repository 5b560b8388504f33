import CourierCore
import CourierHTTP
import Synchronization

/// The messenger's server: an untrusted mailbox. It keeps accounts, devices and their public
/// keys, routes sealed envelopes to per-device mailboxes, delivers them over each device's
/// socket, wakes offline devices with content-free pushes and keeps attachment ciphertext. It
/// never sees plaintext or private keys.
///
/// Mount it on an `HTTPServer`'s router beside the collector (docs/messenger-server.md lists
/// every route); run `backgroundJobs` beside the server (`HTTPServer(…, jobs:)`), or call
/// `expire()` now and then.
public final class MessengerServer: Sendable {
    /// The limits and policies in force.
    public let configuration: MessengerConfiguration
    let store: any MessengerStore
    let clock: any Clock
    let notifier: NATSMailboxNotifier
    let authenticator: DeviceAuthenticator
    let hub: DeliveryHub
    let acks: AckBatcher
    let pushes: PushScheduler
    let sendLimiter: RateLimiter?
    let preKeyLimiter: RateLimiter?
    let preKeyBudget: RateLimiter?
    let registrationLimiter: RateLimiter?
    /// `registrationRateOverall`: one budget, keyed by a constant.
    let overallRegistrationLimiter: RateLimiter?
    let linkingLimiter: RateLimiter?
    let attachments: (any AttachmentStore)?
    let provisioning: ProvisioningRelay
    /// Where store calls made outside a request handler block (mailbox reads for the sockets,
    /// push bookkeeping), so they never hold a thread of Swift's cooperative pool.
    let storeQueues = BlockingQueues(label: "courier.messenger.store", count: 4)
    let envelopesStored = Atomic<Int>(0)
    /// Envelopes queued on a caught-up socket at their commit (`handOverAtCommit`).
    let envelopesHandedOver = Atomic<Int>(0)
    /// Delivery sockets that ended (and were checked for envelopes left unread).
    let socketsEnded = Atomic<Int>(0)
    /// Of those, the ones that left envelopes unread with no other socket of the device live.
    let socketsEndedUnread = Atomic<Int>(0)
    private let shutDown = Atomic<Bool>(false)
    let presence = PresenceCounters()

    /// Creates a server.
    /// - Parameters:
    ///   - store: where everything is kept.
    ///   - pushSenders: one sender per kind of push endpoint; a kind without one gets no pushes.
    ///   - bus: how instances sharing `store` wake each other's sockets, learn who is online and
    ///     relay provisions (`mbx.<account>.<device>`, `conn.<account>.<device>`, `prov.<address>`);
    ///     the default serves one process.
    ///   - attachments: where attachment ciphertext goes; without it, files in
    ///     `configuration.attachmentDirectory` (no attachments when that is `nil` too).
    public init(
        configuration: MessengerConfiguration = .init(), store: any MessengerStore, clock: any Clock = SystemClock(),
        pushSenders: [PushEndpoint.Kind: any PushSender] = [:], bus: any MessageBus = LocalMessageBus(),
        attachments: (any AttachmentStore)? = nil
    ) {
        self.configuration = configuration
        self.store = store
        self.clock = clock
        let hub = DeliveryHub()
        self.hub = hub
        notifier = NATSMailboxNotifier(bus: bus, hub: hub)
        authenticator = DeviceAuthenticator(store: store, clock: clock, configuration: configuration)
        acks = AckBatcher(store: store, interval: configuration.ackBatchInterval)
        pushes = PushScheduler(
            senders: pushSenders, store: store, storeQueues: storeQueues, clock: clock,
            intervalMilliseconds: configuration.pushCoalescingMilliseconds)
        sendLimiter = configuration.sendRate.map { RateLimiter($0, clock: clock) }
        preKeyLimiter = configuration.preKeyFetchRate.map { RateLimiter($0, clock: clock) }
        preKeyBudget = configuration.oneTimePreKeyBudgetPerTarget.map {
            RateLimiter(
                perSecond: $0.perSecond, burst: $0.burst, maximumKeys: configuration.maximumPreKeyBudgetAccounts,
                clock: clock)
        }
        registrationLimiter = configuration.registrationRate.map { RateLimiter($0, clock: clock) }
        overallRegistrationLimiter = configuration.registrationRateOverall.map { RateLimiter($0, clock: clock) }
        linkingLimiter = configuration.linkingRate.map { RateLimiter($0, clock: clock) }
        self.attachments = attachments ?? configuration.attachmentDirectory.map(AttachmentFiles.init(directory:))
        provisioning = ProvisioningRelay(
            bus: bus, clock: clock, maximumSockets: configuration.maximumProvisioningSockets,
            lifetime: configuration.provisioningSocketLifetime)
        // Publishes may have been lost while the bus was away: every socket reads again.
        bus.onReconnect { [hub] in hub.wakeAll() }
        (store as? any MessengerDatabaseStore)?.batcher.onCommitted { [weak self] group in
            self?.handOverAtCommit(group)
        }
    }

    /// On the send committer, after a group's commit and before its sends are answered: each
    /// new envelope whose device has a socket here goes to that socket's session, in commit
    /// order, so a caught-up socket gets it with no wake-up, task or mailbox read. Only stores
    /// that fill `storedEntries` (SQLite, the mailbox's only writer) take part; on PostgreSQL,
    /// where other instances write the same mailboxes, devices are woken as before.
    func handOverAtCommit(_ group: [SendBatcher.Pending]) {
        var handedOver = 0
        for pending in group where !pending.storedEntries.isEmpty {
            let accountId = pending.message.destinationAccount
            for (deviceId, entry) in pending.storedEntries {
                guard let session = hub.session(for: AuthenticatedDevice(accountId: accountId, deviceId: deviceId)),
                    session.isOpen
                else { continue }
                if session.handOver(entry) { handedOver += 1 }
                pending.deliveredHere.insert(deviceId)
            }
        }
        if handedOver > 0 { envelopesHandedOver.add(handedOver, ordering: .relaxed) }
    }

    /// Adds the messenger's routes to `router`, in one group whose error bodies also carry `code`
    /// and `message` at the top level, where the messenger's clients read them.
    public func mount(on router: inout Router) {
        router.group(middleware: [TopLevelErrorFieldsMiddleware()]) { messenger in
            mountAccounts(on: &messenger)
            mountKeys(on: &messenger)
            mountMessages(on: &messenger)
            mountAttachments(on: &messenger)
            mountSocket(on: &messenger)
            mountProvisioning(on: &messenger)
            mountOverview(on: &messenger)
        }
    }

    /// Deletes the acknowledgements still waiting for their batch (`ackBatchInterval`): call it
    /// after the HTTP server has stopped, so that no ack arrives after it. Without it those
    /// envelopes are only sent again on the devices' next connections. Sockets that ended
    /// before and are still in their push grace push nothing after it.
    public func shutdown() {
        shutDown.store(true, ordering: .releasing)
        acks.flush()
    }

    /// Whether `shutdown()` has run.
    var isShutDown: Bool { shutDown.load(ordering: .acquiring) }

    /// Deletes expired envelopes, remembered sends, linking tokens and attachments (an index
    /// range each, not a scan).
    /// - Returns: how many envelopes and attachments expired.
    /// - Throws: `MessengerStoreError`.
    @discardableResult
    public func expire() throws(MessengerStoreError) -> (envelopes: Int, attachments: Int) {
        let expired = try store.expire(now: clock.nowMilliseconds)
        for id in expired.attachments { attachments?.remove(id) }
        return (expired.envelopes, expired.attachments.count)
    }

    /// The work to run beside the server: `expire()` at once and then every
    /// `configuration.expiryInterval` of the server's clock, and the catch-up poll, which wakes
    /// every live socket here each `configuration.catchUpInterval` for wake-ups the bus lost.
    public var backgroundJobs: [BackgroundJob] {
        [
            .every(
                configuration.expiryInterval, on: clock, name: "messenger.expiry",
                blocking: { [self] in _ = try? expire() }),
            .every(configuration.catchUpInterval, on: clock, name: "messenger.catch-up") { [hub] in hub.wakeAll() },
        ]
    }

    /// Devices with a live socket on this instance.
    public var liveSockets: Int { hub.count }

    /// Provisioning sockets (devices waiting to be linked) open on this instance.
    public var provisioningSockets: Int { provisioning.count }

    /// The messenger's counters in Prometheus text format, for `/metrics`.
    public func metricsText() -> String {
        """
        # HELP courier_messenger_envelopes_stored_total Envelopes stored in device mailboxes.
        # TYPE courier_messenger_envelopes_stored_total counter
        courier_messenger_envelopes_stored_total \(envelopesStored.load(ordering: .relaxed))
        # HELP courier_messenger_envelopes_handed_over_total Envelopes queued on a caught-up socket at their commit, with no mailbox read.
        # TYPE courier_messenger_envelopes_handed_over_total counter
        courier_messenger_envelopes_handed_over_total \(envelopesHandedOver.load(ordering: .relaxed))
        # HELP courier_messenger_sockets_ended_total Delivery sockets that ended.
        # TYPE courier_messenger_sockets_ended_total counter
        courier_messenger_sockets_ended_total \(socketsEnded.load(ordering: .relaxed))
        # HELP courier_messenger_sockets_ended_unread_total Delivery sockets that ended with envelopes unacknowledged and no other socket of the device live: the device is pushed.
        # TYPE courier_messenger_sockets_ended_unread_total counter
        courier_messenger_sockets_ended_unread_total \(socketsEndedUnread.load(ordering: .relaxed))
        # HELP courier_messenger_sockets Devices with a live delivery socket on this instance.
        # TYPE courier_messenger_sockets gauge
        courier_messenger_sockets \(hub.count)
        # HELP courier_messenger_provisioning_sockets Devices waiting to be linked on this instance (provisioning sockets).
        # TYPE courier_messenger_provisioning_sockets gauge
        courier_messenger_provisioning_sockets \(provisioning.count)
        # HELP courier_messenger_pushes_sent_total Content-free pushes a push service accepted.
        # TYPE courier_messenger_pushes_sent_total counter
        courier_messenger_pushes_sent_total \(pushes.sent.load(ordering: .relaxed))
        # HELP courier_messenger_pushes_coalesced_total Pushes not sent because one had just gone to the device.
        # TYPE courier_messenger_pushes_coalesced_total counter
        courier_messenger_pushes_coalesced_total \(pushes.coalesced.load(ordering: .relaxed))
        # HELP courier_messenger_pushes_failed_total Pushes that failed, were refused as unregistered, or were not attempted (the sender at its cap).
        # TYPE courier_messenger_pushes_failed_total counter
        courier_messenger_pushes_failed_total \(pushes.failed.load(ordering: .relaxed))
        # HELP courier_messenger_legacy_credentials_migrated_total Argon2id credentials replaced by salted token hashes at sign-in.
        # TYPE courier_messenger_legacy_credentials_migrated_total counter
        courier_messenger_legacy_credentials_migrated_total \(authenticator.counters.migrated)
        # HELP courier_messenger_password_hashes_refused_total Legacy sign-ins answered 503: every hashing slot was busy.
        # TYPE courier_messenger_password_hashes_refused_total counter
        courier_messenger_password_hashes_refused_total \(authenticator.counters.refusedBusy)

        """ + presence.metricsText
    }

    /// Salted token hashes and Argon2id verifications so far, and legacy credentials migrated:
    /// for tests that check what a request cost.
    package var credentialWork: (tokenHashes: Int, argon2idVerifications: Int, migrated: Int, refusedBusy: Int) {
        let counters = authenticator.counters
        return (counters.tokenHashes, counters.argon2idVerifications, counters.migrated, counters.refusedBusy)
    }

    /// Target accounts whose one-time prekey budget is held in memory now: for tests of its bound.
    package var preKeyBudgetAccounts: Int { preKeyBudget?.keyCount ?? 0 }

    /// Takes one slot of the cap on concurrent Argon2id verifications, as a verification would,
    /// until `body` returns: for tests of what happens when every slot is busy.
    /// - Returns: `nil` when no slot was free.
    package func holdingPasswordHashSlot<T>(_ body: () async throws -> T) async rethrows -> T? {
        guard authenticator.gate.tryEnter() else { return nil }
        defer { authenticator.gate.leave() }
        return try await body()
    }

    /// The authenticated device of `request`.
    func device(_ request: HTTPRequest) throws(HTTPError) -> AuthenticatedDevice {
        try authenticator.authenticate(request)
    }

    /// Runs a store call, turning its failure into an answer.
    func stored<T>(_ body: () throws(MessengerStoreError) -> T) throws(HTTPError) -> T {
        do {
            return try body()
        } catch {
            throw HTTPError.store(error)
        }
    }

    static func limit(_ limiter: RateLimiter?, _ key: String) throws(HTTPError) {
        if case .limited(let seconds) = limiter?.take(key) ?? .allowed {
            throw HTTPError.rateLimited(retryAfter: seconds)
        }
    }
}
