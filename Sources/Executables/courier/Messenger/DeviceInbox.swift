import Foundation
import Messenger

/// Collects what a device's delivery socket (or a catch-up) produced, so the scripted demo can
/// wait for one particular event with a deadline.
actor DeviceInbox {
    private var events: [IncomingEvent] = []
    private var reader: Task<Void, Never>?

    /// Starts reading `listener`'s events into the inbox (replacing an earlier listener's reader).
    func follow(_ listener: DeliveryListener) {
        reader = Task { [weak self] in
            for await event in listener.events { await self?.append(event) }
        }
    }

    /// Adds events from a catch-up.
    func append(contentsOf more: [IncomingEvent]) { events += more }

    private func append(_ event: IncomingEvent) { events.append(event) }

    /// Removes and returns the first event that `matches`, if one arrived.
    private func take(where matches: (IncomingEvent) -> Bool) -> IncomingEvent? {
        guard let index = events.firstIndex(where: matches) else { return nil }
        return events.remove(at: index)
    }

    /// Waits until an event that `matches` arrives, then removes and returns it.
    /// - Throws: `CommandError` naming `what` when `timeout` passes first.
    func next(
        _ what: String, timeout: Duration = .seconds(15), where matches: @Sendable (IncomingEvent) -> Bool
    ) async throws -> IncomingEvent {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let event = take(where: matches) { return event }
            guard ContinuousClock.now < deadline else { throw CommandError("timed out waiting for \(what)") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}

extension IncomingEvent {
    /// The stored message, when this event is one.
    var message: Message? {
        if case .message(let message) = self { return message }
        return nil
    }

    /// One line for the terminal.
    func line(names: [String: String] = [:]) -> String {
        func name(_ account: String) -> String { names[account] ?? account }
        switch self {
        case .message(let message):
            let seq = message.serverSeq.map { "#\($0)" } ?? "#?"
            let file = message.attachment.map { " [attachment \($0.fileName ?? $0.id), \($0.size) bytes]" }
            return
                "\(seq) \(name(message.sender.account)) (device \(message.sender.device)): \(message.body)\(file ?? "")"
        case .receipt(let kind, _, let upToSeq, let reader):
            return "receipt: \(kind) up to #\(upToSeq) by \(name(reader))"
        case .typing(let account, _, let started):
            return "\(name(account)) \(started ? "is typing…" : "stopped typing")"
        case .groupUpdated(let group, let members):
            return "group \(group): \(members.map(name).joined(separator: ", "))"
        case .senderKeyReceived(let group, let from):
            return "sender key for \(group) from \(name(from))"
        case .duplicate:
            return "(a duplicate delivery, dropped)"
        case .identityChanged(let account):
            return "WARNING: \(name(account))'s identity key changed; sending is blocked until you accept it"
        case .undecryptable(let from, let reason):
            return "could not decrypt a message from \(name(from)): \(reason)"
        case .unsupported(let kind):
            return "(unsupported content \(kind))"
        }
    }
}
