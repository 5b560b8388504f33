import CourierCore
import CourierHTTP
import Foundation
import Messenger
import Realtime
import SignalProtocol

/// One messenger device as the CLI drives it: the `MessengerClient` and its delivery socket,
/// with the few calls the CLI shapes for the terminal (files, safety numbers).
final class ChatDevice: Sendable {
    /// The name shown in the CLI's output ("alice-phone").
    let name: String
    let client: MessengerClient
    let sockets: WebSocketClient

    init(name: String, client: MessengerClient, sockets: WebSocketClient) {
        self.name = name
        self.client = client
        self.sockets = sockets
    }

    var accountId: String { client.credentials.accountId }
    var deviceId: UInt32 { client.credentials.deviceId }

    /// A device's configuration: its state in `directory`, its storage key in the 0600 file
    /// `keyFile` (kept beside the directory, not inside it).
    static func configuration(server: String, directory: String, keyFile: String, name: String)
        -> MessengerClientConfiguration
    {
        MessengerClientConfiguration(
            serverURL: server, directory: directory, keyProvider: FileKeyProvider(path: keyFile), deviceName: name)
    }

    /// The delivery socket's transport: this server's socket URL with this device's credentials.
    var transport: WebSocketTransport {
        let client = client
        return WebSocketTransport(client: sockets, url: client.deliverySocketURL) { [client.authorizationHeader] }
    }

    /// Opens one delivery socket; what arrives is decrypted, stored and then acknowledged.
    func listen() async throws -> DeliveryListener {
        try await client.listen(transport: transport)
    }

    /// Keeps the delivery socket open, reconnecting with backoff, catching up and sending what
    /// is queued each time it is live.
    func connect() async -> DeliveryConnection {
        await client.connect(transport: transport)
    }

    /// Encrypts and uploads `bytes` (a fresh key per file), then sends the pointer (id, key,
    /// digest, size, type) inside an end-to-end encrypted message to `account`.
    @discardableResult
    func send(file bytes: [UInt8], named fileName: String, caption: String, to account: String) async throws
        -> Message
    {
        try await client.send(
            attachment: Data(bytes), contentType: "application/octet-stream", fileName: fileName, caption: caption,
            to: account)
    }

    /// Downloads and decrypts an attachment; its size and digest are checked before decrypting.
    func download(_ pointer: AttachmentPointer) async throws -> [UInt8] {
        Array(try await client.download(pointer))
    }

    /// The safety number with `account` from the identity key this device's sessions use.
    /// - Throws: `CommandError` when no key of `account` is known yet (no message exchanged).
    func safetyNumber(with account: String) async throws -> SafetyNumberPresentation {
        do {
            return try await client.safetyNumber(with: account)
        } catch let error as MessengerClientError where error.code == .invalidArgument {
            throw CommandError("no identity key of \(account) is known yet: exchange a message first")
        }
    }
}
