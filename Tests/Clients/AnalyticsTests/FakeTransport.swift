import Analytics
import CourierCore
import Foundation
import Synchronization

/// A scripted network: answers uploads from a list (or a rule), records every request, and can
/// be switched offline.
final class FakeTransport: AnalyticsTransport {
    struct Recorded: Sendable {
        let request: TransportRequest
        /// The upload's messages (gunzipped), each with the batch's context when it shares it, as
        /// a collector stores them; empty for settings requests.
        let messages: [JSONValue]
        let body: JSONValue?
        var delivered = false
    }

    private let state = Mutex<(recorded: [Recorded], script: [TransportResult], offline: Bool)>(([], [], false))
    let settings = Mutex<JSONValue?>(nil)
    /// The rules, in a class: a closure kept in a `Mutex` and read with `withLock { $0 }` is
    /// written back in one more reabstraction thunk on every read (see MailboxNotifierTests).
    final class Rules: Sendable {
        let byCount: (@Sendable (Int) -> TransportResult)?
        let byBody: (@Sendable ([JSONValue]) -> TransportResult?)?
        init(
            byCount: (@Sendable (Int) -> TransportResult)? = nil,
            byBody: (@Sendable ([JSONValue]) -> TransportResult?)? = nil
        ) {
            self.byCount = byCount
            self.byBody = byBody
        }
    }

    private let rules = Mutex(Rules())

    /// Answers uploads by their message count (after the script).
    func setRule(_ rule: @escaping @Sendable (Int) -> TransportResult) {
        rules.withLock { $0 = Rules(byCount: rule, byBody: $0.byBody) }
    }

    /// Answers from the upload's messages, before the count rule; `nil` falls through.
    func setBodyRule(_ rule: @escaping @Sendable ([JSONValue]) -> TransportResult?) {
        rules.withLock { $0 = Rules(byCount: $0.byCount, byBody: rule) }
    }

    static let ok = TransportResult.response(status: 200, headers: [:], body: Array("{\"success\":true}".utf8))
    static func status(_ code: Int, headers: [String: String] = [:]) -> TransportResult {
        .response(status: code, headers: headers, body: Array("{\"code\":\"x\",\"message\":\"x\"}".utf8))
    }

    /// Answers for the next uploads, in order; after the script, uploads get the rule or 200.
    func script(_ results: [TransportResult]) { state.withLock { $0.script += results } }
    func setOffline(_ offline: Bool) { state.withLock { $0.offline = offline } }

    var uploads: [Recorded] { state.withLock { $0.recorded.filter { $0.request.method == "POST" } } }
    /// Messages of uploads that were answered 2xx.
    var uploadedMessages: [JSONValue] { uploads.filter(\.delivered).flatMap(\.messages) }
    var requestCount: Int { state.withLock { $0.recorded.count } }

    /// Uploads held before they are answered: `nil` when uploads are not held.
    private let held = Mutex<[CheckedContinuation<Void, Never>]?>(nil)
    private let heldCount = Mutex(0)

    /// Holds every upload from now on until `releaseHeldUploads()`.
    func holdUploads() { held.withLock { $0 = $0 ?? [] } }

    /// How many uploads have been held so far.
    var uploadsHeld: Int { heldCount.withLock { $0 } }

    /// Lets the held uploads (and later ones) be answered.
    func releaseHeldUploads() {
        let waiting = held.withLock { held in
            defer { held = nil }
            return held ?? []
        }
        for upload in waiting { upload.resume() }
    }

    func send(_ request: TransportRequest) async -> TransportResult {
        if request.method == "POST" {
            await withCheckedContinuation { continuation in
                let holding = held.withLock { held -> Bool in
                    guard held != nil else { return false }
                    held?.append(continuation)
                    return true
                }
                if holding { heldCount.withLock { $0 += 1 } } else { continuation.resume() }
            }
        }
        if request.method == "GET" {
            state.withLock { $0.recorded.append(Recorded(request: request, messages: [], body: nil)) }
            if let json = settings.withLock({ $0 }) {
                return .response(status: 200, headers: [:], body: JSONWriter.encode(json))
            }
            return state.withLock { $0.offline } ? .failure("offline") : Self.status(404)
        }
        let body = request.body.flatMap { try? Gzip.decompress($0, limit: 1 << 24) }.flatMap {
            try? JSONParser.parse($0)
        }
        // As a collector stores them: the batch's `context` goes into each message without one.
        let messages = (body?["batch"]?.arrayValue ?? []).map { message -> JSONValue in
            guard let shared = body?["context"], message["context"] == nil, var members = message.objectValue
            else { return message }
            members["context"] = shared
            return .object(members)
        }
        let current = rules.withLock { $0 }
        let rule = current.byCount
        let answer = current.byBody?(messages)
        return state.withLock { state in
            var record = Recorded(request: request, messages: messages, body: body)
            let result: TransportResult
            if state.offline {
                result = .failure("offline")
            } else if !state.script.isEmpty {
                result = state.script.removeFirst()
            } else if let answer {
                result = answer
            } else {
                result = rule?(messages.count) ?? Self.ok
            }
            if case .response(let status, _, _) = result, (200..<300).contains(status) { record.delivered = true }
            state.recorded.append(record)
            return result
        }
    }
}
