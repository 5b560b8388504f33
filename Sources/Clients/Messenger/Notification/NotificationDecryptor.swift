import CourierCore
import CourierHTTPClient
import Synchronization

/// What a notification shows.
public struct NotificationAlert: Sendable, Hashable {
    /// The title (the sender's account, or the generic title).
    public var title: String
    /// The body (the message text, or the generic text).
    public var body: String
    /// Whether this is the generic fallback (nothing could be decrypted in time).
    public var isGeneric: Bool
    /// How many new conversation messages were stored.
    public var messageCount: Int

    /// Creates an alert.
    public init(title: String, body: String, isGeneric: Bool, messageCount: Int) {
        self.title = title
        self.body = body
        self.isGeneric = isGeneric
        self.messageCount = messageCount
    }
}

/// The notification service extension's work: on a push (which carries no content), fetch the
/// pending envelopes over HTTP, decrypt them with the store the app shares, store them, acknowledge
/// them over HTTP, and return the text to show — within a deadline, else the generic text.
///
/// The app and the extension are two processes on one store. Every ratchet step of either takes
/// the file lock in the shared directory and runs in one SQLite transaction that re-reads the
/// session, so neither advances a ratchet from a stale copy; an envelope either process already
/// stored is recognised by its id and not decrypted again.
///
/// ```swift
/// // UNNotificationServiceExtension.didReceive:
/// let alert = await NotificationDecryptor(configuration: shared).decrypt(deadline: .seconds(25))
/// content.title = alert.title; content.body = alert.body
/// ```
public struct NotificationDecryptor: Sendable {
    /// The shared configuration (same directory and key provider as the app).
    public let configuration: MessengerClientConfiguration
    /// Shown when nothing could be decrypted in time.
    public var genericAlert = NotificationAlert(
        title: "New message", body: "You have a new message", isGeneric: true, messageCount: 0)
    private let http: HTTPClient

    /// Creates a decryptor.
    public init(configuration: MessengerClientConfiguration, http: HTTPClient = HTTPClient(timeout: .seconds(20))) {
        self.configuration = configuration
        self.http = http
    }

    /// Fetches, decrypts, stores and acknowledges what is pending; never throws.
    /// - Parameter deadline: how long the system gives (about 30 s on iOS; keep a margin).
    /// - Returns: the last new message as the alert, or `genericAlert` when none was stored by
    ///   the deadline or anything failed. Envelopes processed before the deadline stay processed.
    public func decrypt(deadline: Duration) async -> NotificationAlert {
        let generic = genericAlert
        let collected = Collected()
        let finished = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let race = FirstOutcome(continuation)
            let work = Task { [configuration, http] in
                defer { race.resolve(true) }
                let client = try MessengerClient.open(configuration, http: http)
                _ = try await client.catchUp(limit: 500) { event in
                    if case .message(let message) = event { collected.add(message) }
                }
            }
            let timer = Task { [clock = configuration.clock] in
                try? await clock.sleep(for: deadline)
                guard !Task.isCancelled else { return }
                work.cancel()
                race.resolve(false)
            }
            race.onResolve { timer.cancel() }
        }
        _ = finished
        guard let last = collected.last else { return generic }
        return NotificationAlert(
            title: last.sender.account, body: last.body, isGeneric: false, messageCount: collected.count)
    }
}

/// Resumes a continuation once, with whichever of the work and the deadline comes first.
private final class FirstOutcome: Sendable {
    private let state: Mutex<(continuation: CheckedContinuation<Bool, Never>?, cleanups: [@Sendable () -> Void])>

    init(_ continuation: CheckedContinuation<Bool, Never>) { state = Mutex((continuation, [])) }

    func resolve(_ value: Bool) {
        let (continuation, cleanups) = state.withLock { state in
            defer { state = (nil, []) }
            return (state.continuation, state.continuation == nil ? [] : state.cleanups)
        }
        continuation?.resume(returning: value)
        for cleanup in cleanups { cleanup() }
    }

    /// Runs `cleanup` once the outcome is known (at once when it already is).
    func onResolve(_ cleanup: @escaping @Sendable () -> Void) {
        let resolved = state.withLock { state in
            if state.continuation == nil { return true }
            state.cleanups.append(cleanup)
            return false
        }
        if resolved { cleanup() }
    }
}

/// Messages stored so far, read when the deadline strikes.
private final class Collected: Sendable {
    private let messages = Mutex<[Message]>([])
    func add(_ message: Message) { messages.withLock { $0.append(message) } }
    var last: Message? { messages.withLock { $0.last } }
    var count: Int { messages.withLock { $0.count } }
}
