import CourierCore
import FlagRules
import Foundation

/// What one `fetch()` did.
public enum FetchOutcome: Sendable, Equatable {
    /// New definitions arrived; they wait for `activate()` (or the next launch).
    case fetched(version: Int64)
    /// The server answered 304: what the client has is current.
    case notModified
    /// Skipped: the last fetch is more recent than the minimum interval.
    case throttled
    /// Skipped: a failure's backoff is still running.
    case backingOff
    /// No usable answer (offline, 5xx, 4xx); the last-known-good definitions stay.
    case failed(String)
    /// The server sent definitions that do not validate; the last-known-good ones stay.
    case rejected(String)
}

extension FeatureFlags {
    /// Fetches the environment's definitions with `If-None-Match`, unless the minimum interval
    /// or a backoff says to wait. New definitions are kept as pending (and on disk), never
    /// applied mid-screen; a kill switch in them applies at once.
    /// - Parameter force: skip the minimum interval (not a running backoff).
    @discardableResult
    public func fetch(force: Bool = false) async -> FetchOutcome {
        let clock = configuration.clock
        let (decision, etag) = state.withLock { state in
            (state.schedule.decide(now: clock.uptimeNanoseconds, force: force), (state.pending ?? state.active)?.etag)
        }
        switch decision {
        case .throttled: return .throttled
        case .backingOff: return .backingOff
        case .fetch: break
        }
        var headers = ["Accept": "application/json", "Accept-Encoding": "gzip"]
        if let etag { headers["If-None-Match"] = etag }
        let url = "\(configuration.serverURL)/v1/flags/\(Self.escape(configuration.environmentKey))"
        let outcome = Self.interpret(
            await configuration.transport.send(TransportRequest(method: "GET", url: url, headers: headers)),
            maximumBytes: configuration.maximumDocumentBytes)
        let now = clock.now
        switch outcome {
        case .document(let document, let newTag):
            state.withLock { state in
                state.schedule.recordSuccess(now: clock.uptimeNanoseconds)
                state.pending = FlagSnapshot(document: document, etag: newTag, fetchedAt: now, source: .network)
            }
            persist()
            return .fetched(version: document.version)
        case .notModified:
            state.withLock { state in
                state.schedule.recordSuccess(now: clock.uptimeNanoseconds)
                if let pending = state.pending {
                    state.pending = FlagSnapshot(
                        document: pending.document, etag: pending.etag, fetchedAt: now, source: pending.source)
                } else if let active = state.active {
                    state.active = FlagSnapshot(
                        document: active.document, etag: active.etag, fetchedAt: now, source: active.source)
                }
            }
            persist()
            return .notModified
        case .failed(let message), .rejected(let message):
            state.withLock { state in
                var generator = SystemRandomNumberGenerator()
                state.schedule.recordFailure(now: clock.uptimeNanoseconds, using: &generator)
            }
            if case .rejected = outcome { return .rejected(message) }
            return .failed(message)
        }
    }

    enum Answer {
        case document(FlagDocument, etag: String?)
        case notModified
        case failed(String)
        case rejected(String)
    }

    static func interpret(_ result: FlagTransportResult, maximumBytes: Int) -> Answer {
        switch result {
        case .failure(let message):
            return .failed(message)
        case .response(304, _, _):
            return .notModified
        case .response(200, let headers, var body):
            if Gzip.isGzip(body) {
                guard let plain = try? Gzip.decompress(body, limit: maximumBytes) else {
                    return .rejected("the definitions are not valid gzip or are too large")
                }
                body = plain
            }
            guard body.count <= maximumBytes else { return .rejected("the definitions are too large") }
            let json: JSONValue
            do {
                json = try JSONParser.parse(body)
            } catch {
                return .rejected("the definitions are not valid JSON: \(error)")
            }
            do {
                return .document(try FlagDocument.parse(json), etag: headers["etag"])
            } catch {
                return .rejected("the definitions do not validate: \(error)")
            }
        case .response(let status, _, _):
            return .failed("the server answered \(status)")
        }
    }

    static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~")))
            ?? text
    }
}
