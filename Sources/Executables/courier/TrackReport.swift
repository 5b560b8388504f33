import Analytics
import Foundation

/// The one line `courier track` ends with: the counts as the collector acknowledged them, and
/// when events were not stored, why, in words that point at the fix.
struct TrackReport {
    /// The command as given: server, write key, user id, drain time.
    let command: TrackCommand
    let project: ProjectProbe
    let stats: AnalyticsStats
    /// The queue after the drain, or `nil` when the drain's deadline passed first.
    let result: FlushResult?

    /// Whether everything tracked was stored, or left out only by the project's sample.
    var succeeded: Bool { reason == nil || isSampledOut }

    var line: String {
        guard let reason else { return counts }
        return "\(counts): \(reason)"
    }

    /// `tracked 3, sent 2, sampled out 1, still queued 0`: only the counts that are not zero
    /// beyond the first two.
    var counts: String {
        var parts = ["tracked \(stats.tracked)", "sent \(stats.sent)"]
        if refused > 0 { parts.append("refused as invalid \(refused)") }
        if stats.dropped(.tooLarge) > 0 { parts.append("too large \(stats.dropped(.tooLarge))") }
        if stats.dropped(.sampled) > 0 { parts.append("sampled out \(stats.dropped(.sampled))") }
        if stats.dropped(.disabled) > 0 { parts.append("dropped by the kill switch \(stats.dropped(.disabled))") }
        let queued = result?.remaining ?? stats.queuedEvents
        if queued > 0 { parts.append("still queued \(queued)") }
        return parts.joined(separator: ", ")
    }

    private var isSampledOut: Bool { stats.dropped(.sampled) > 0 && reason == sampledOut }

    private var sampledOut: String {
        let who = command.userId.map { "user \($0) is" } ?? "this anonymous user is"
        return "sampled out at \(Self.percent(sampleRate)) %: \(who) outside the project's sample"
    }

    /// Why events were not stored, or `nil` when all of them were.
    var reason: String? {
        let attempt = result?.lastUpload
        let queued = result?.remaining ?? stats.queuedEvents
        if let attempt, attempt.status == nil {
            return "\(attempt.failure ?? "no answer") to \(server) (is courier-server running there?"
                + " --server or COURIER_SERVER say where); the events stay queued for the next run"
        }
        if case .unreachable(let why) = project, stats.sent == 0 {
            return "\(why) to \(server) (is courier-server running there? --server or COURIER_SERVER say where)"
        }
        let turnOff = "courier settings set \(writeKey) --enabled true turns it off"
        if attempt?.errorCode == "project_disabled" {
            return "403 project_disabled: the project's kill switch is on (\(turnOff))"
        }
        if stats.dropped(.disabled) > 0
            || killed && stats.sent == 0 && queued > 0
        {
            return "the project's kill switch is on, as the SDK read in its settings (\(turnOff))"
        }
        if case .notCourier(let status, let body) = project {
            return "\(server) is not a Courier server (unexpected answer: \(status) with \(body))"
        }
        if let attempt, let status = attempt.status, !attempt.fromCollector {
            return "\(server) is not a Courier server (unexpected answer: \(status) from \(attempt.url))"
        }
        if project == .unknownWriteKey || attempt?.status == 401 {
            return "the server does not know the write key \(writeKey) (--write-key or COURIER_WRITE_KEY)"
        }
        // Before the status: a batch all of whose messages are invalid is answered 400.
        if refused > 0 {
            return "the collector refused \(refused) as invalid (courier sources rejections \(writeKey) says why)"
        }
        if let attempt, let status = attempt.status, !(200..<300).contains(status) {
            let code = attempt.errorCode.map { " \($0)" } ?? ""
            let message = attempt.errorMessage.map { ": \($0)" } ?? ""
            return "the server answered \(status)\(code)\(message)"
        }
        if stats.dropped(.tooLarge) > 0 { return "events over the size limit are not sent" }
        if stats.dropped(.sampled) > 0 && stats.sent == 0 { return sampledOut }
        if result == nil {
            return "the upload did not finish within \(Self.percent(command.drainSeconds)) s (--drain-seconds);"
                + " what was not acknowledged stays queued for the next run"
        }
        if queued > 0 { return "the server did not take every event; they stay queued for the next run" }
        return nil
    }

    /// Events the collector refused as invalid.
    private var refused: Int { stats.dropped(.rejected) + stats.dropped(.poison) }

    private var server: String { command.server }
    private var writeKey: String { command.writeKey }

    private var sampleRate: Double { if case .settings(_, let rate, _) = project { rate } else { 100 } }

    /// Whether the settings read before tracking had the kill switch on.
    private var killed: Bool { if case .settings(false, _, _) = project { true } else { false } }

    /// `50`, `12.5`: no trailing `.0`.
    static func percent(_ value: Double) -> String {
        value.rounded() == value ? String(Int(value)) : String(value)
    }
}
