import CourierCore
import SignalProtocol

/// Whether an account can be written to, as the key directory says.
public enum RecipientReadiness: Sendable, Equatable {
    /// Sessions exist (or were just started) with this many of the account's devices.
    case ready(devices: Int)
    /// No account by that id is registered on this server.
    case unknownAccount
    /// The account exists, but none of its devices has uploaded keys yet.
    case noDeviceWithKeys
}

extension MessengerClient {
    /// Asks the key directory about `account` before anything is stored for it, so that an app
    /// can say "no such account" instead of queueing a message no one will receive. With no
    /// session yet, the fetched bundles start the sessions the next send uses, so the check
    /// costs no extra one-time prekey; with sessions already, it asks nothing.
    ///
    /// ```swift
    /// guard case .ready = try await client.checkRecipient(account) else { return }
    /// try await client.send(text: "hello", to: account)
    /// ```
    /// - Throws: `.transport` or `.server` when the directory cannot be asked;
    ///   `.identityChanged` when the account's key changed and was not accepted yet.
    public func checkRecipient(_ account: String) async throws -> RecipientReadiness {
        let sender = sesame
        let known = try sender.active(account).count
        if known > 0 || account == credentials.accountId { return .ready(devices: known) }
        switch try await api.lookUpBundles(of: account, device: nil, as: credentials) {
        case .unknownAccount:
            return .unknownAccount
        case .noKeys:
            return .noDeviceWithKeys
        case .bundles(let bundles):
            try await sender.startSessions(account, with: bundles)
            let started = try sender.active(account).count
            return started > 0 ? .ready(devices: started) : .noDeviceWithKeys
        }
    }
}
