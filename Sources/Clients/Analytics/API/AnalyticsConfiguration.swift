import CourierCore
import Foundation

/// Everything an `Analytics` instance needs, fixed at `init`. Nothing reads global state.
public struct AnalyticsConfiguration: Sendable {
    /// The project's write key.
    public var writeKey: String
    /// The collector, e.g. `https://collector.example.com`; `POST /v1/batch` is appended.
    public var host: String
    /// Where the SDK keeps its queue and state (a folder per write key is made inside).
    /// `nil` uses Application Support (Apple) or `~/.courier-analytics` (Linux).
    public var storageDirectory: URL?
    /// Events that trigger an upload (remote settings may change it).
    public var flushAt = 20
    /// Time after which queued events are uploaded (remote settings may change it).
    public var flushInterval: Duration = .seconds(30)
    /// Most events per upload; uploads also stay under `maximumBatchBytes`.
    public var maximumBatchCount = 100
    /// Batches uploaded at once, each acknowledged and deleted on its own; a failure or a kill
    /// sends at most this many batches again. 1 sends one batch at a time.
    public var maximumUploadsInFlight = 4
    /// Largest upload body before gzip (the collector's limit is 500 KB).
    public var maximumBatchBytes = 475 * 1024
    /// An event larger than this, encoded, is dropped (the collector's limit is 32 KB).
    public var maximumEventBytes = 32 * 1024
    /// The queue never holds more than this many bytes of events; the oldest are dropped first.
    /// It counts what each event keeps in the queue: a session's shared context is kept once,
    /// not in every event, and is not counted.
    public var maximumQueueBytes = 8 * 1024 * 1024
    /// A hard limit on the queue file's size (SQLite's page limit), beyond `maximumQueueBytes`
    /// which counts only event bytes. Writes past it fail like a full disk: the events are dropped
    /// and counted (`storage`), nothing crashes, and what is queued is kept. `nil`: no limit.
    public var maximumQueueFileBytes: Int?
    /// Events older than this are dropped from the queue.
    public var maximumEventAge: Duration = .seconds(7 * 24 * 3600)
    /// The in-memory write buffer: events are appended to disk in groups of at most this many …
    public var writeBufferCount = 16
    /// … or after at most this long. A process kill loses at most this buffer.
    public var writeBufferInterval: Duration = .milliseconds(250)
    /// During a burst (the buffer fills before its timer), each next group is twice the last,
    /// up to this many events, so a flood costs fewer transactions; the timer's write brings the
    /// group back to `writeBufferCount`. Every event is still written within
    /// `writeBufferInterval`. The same as `writeBufferCount`: groups never grow.
    public var writeBufferBurstCount = 256
    /// Events waiting to reach the pipeline beyond which `track` drops (counted, never blocks).
    public var maximumPendingCalls = 100_000
    /// Consent when the user has not chosen yet. Unless it is `.granted`, nothing is collected and
    /// no request is made (not even the settings fetch).
    public var defaultConsent: Consent = .denied
    /// Percentage (0–100) of users or sessions kept, until remote settings say otherwise.
    public var sampleRate: Double = 100
    /// Whether sampling is decided per user or per session.
    public var samplingUnit: SamplingUnit = .user
    /// Property and trait keys kept; `nil` keeps all. A remote list can only narrow it.
    public var propertyAllowList: [String]?
    /// Whether e-mail addresses and phone numbers in string values are redacted.
    public var redactsPII = true
    /// Enrichment plugins, run in order on every event before it is stored; `nil` drops it.
    public var plugins: [AnalyticsPlugin] = []
    /// Retry backoff for failed uploads (full jitter).
    public var backoff = Backoff(base: .seconds(1), cap: .seconds(600))
    /// Whether settings are fetched from the collector after launch.
    public var fetchesRemoteSettings = true
    /// The collector's settings as the host just read them (`GET /v1/projects/{key}/settings`):
    /// applied at start in place of the ones stored by an earlier launch, so the first events
    /// follow them. `courier track` reads them before tracking; an app leaves this `nil`.
    package var currentSettings: JSONValue?
    /// Application facts for `context.app`; `nil` (the default) reads `AppInfo.current` (the main
    /// bundle on Apple platforms, the process name elsewhere) on the SDK's actor after launch, not
    /// on the thread that creates the configuration.
    public var app: AppInfo?
    /// Where log lines go (one line, never event contents); `nil` is silent.
    public var logger: (@Sendable (String) -> Void)?
    /// The clock (tests inject a manual one).
    public var clock: any Clock = SystemClock()
    /// The network (tests inject fakes; the default is URLSession).
    public var transport: (any AnalyticsTransport)?

    /// A configuration for `writeKey` sending to `host`.
    public init(writeKey: String, host: String) {
        self.writeKey = writeKey
        self.host = host
    }
}

/// Whether the user allows collection.
public enum Consent: String, Sendable, Codable {
    /// Events are collected and sent.
    case granted
    /// Nothing is collected; revoking also purges what is queued and forgets the user.
    case denied
    /// The user has not chosen yet: nothing is collected or sent, and nothing is purged.
    case pending
}

/// What a sampling decision is keyed on.
public enum SamplingUnit: String, Sendable {
    /// `userId`, or `anonymousId` before `identify`: a user is in or out for good.
    case user
    /// The session id: a whole session is in or out.
    case session
}

/// Facts about the host app for `context.app`.
public struct AppInfo: Sendable, Equatable {
    /// The app's name.
    public var name: String
    /// Marketing version.
    public var version: String
    /// Build number.
    public var build: String
    /// Bundle identifier or package name.
    public var namespace: String

    /// Creates app info.
    public init(name: String, version: String, build: String, namespace: String) {
        self.name = name
        self.version = version
        self.build = build
        self.namespace = namespace
    }

    /// Read from the main bundle (Apple) or the process name (elsewhere).
    public static var current: AppInfo {
        let info = Bundle.main.infoDictionary ?? [:]
        let name = info["CFBundleName"] as? String ?? ProcessInfo.processInfo.processName
        return AppInfo(
            name: name, version: info["CFBundleShortVersionString"] as? String ?? "",
            build: info["CFBundleVersion"] as? String ?? "",
            namespace: Bundle.main.bundleIdentifier ?? name)
    }
}
