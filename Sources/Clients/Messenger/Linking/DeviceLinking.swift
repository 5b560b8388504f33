import CourierCore
import CourierHTTPClient
import SignalProtocol

/// A device waiting to be linked to an existing account, as Signal links one: it holds an
/// ephemeral key pair and the server's provisioning socket, shows `code`, and becomes a device of
/// the account once a device of that account has sent it a provision (`MessengerClient.provision`).
/// The account's identity key reaches it sealed to the ephemeral key, through a server that sees
/// only ciphertext, and is never written anywhere but the new device's sealed store.
///
/// ```swift
/// let linking = try await MessengerClient.startLinking(configuration, sockets: try WebSocketClient())
/// show(linking.code.uri)                       // as text or a QR code
/// let tablet = try await linking.finish()      // after the phone ran provision(code)
/// ```
public struct DeviceLinking: Sendable {
    /// What to show: the socket's address and the ephemeral public key.
    public let code: ProvisioningCode
    /// When the server closes the socket (wall milliseconds), as it said.
    public let expiresAt: Int64?
    private let ephemeral: KeyPair
    private let socket: WebSocket
    private let configuration: MessengerClientConfiguration
    private let http: HTTPClient

    /// Opens the provisioning socket and reads its address.
    static func start(_ configuration: MessengerClientConfiguration, sockets: WebSocketClient, http: HTTPClient)
        async throws -> DeviceLinking
    {
        let ephemeral: KeyPair
        do {
            ephemeral = try KeyPair.generate()
        } catch {
            throw MessengerClientError(.protocolFailure, "no ephemeral key could be made", underlying: error)
        }
        let url = MessengerClient.socketURL(configuration.serverURL, path: "/v1/websocket/provisioning/")
        let socket: WebSocket
        do {
            socket = try await sockets.connect(to: url)
        } catch {
            throw MessengerClientError(.transport, "the provisioning socket did not open", underlying: error)
        }
        var frames = socket.inbound.makeAsyncIterator()
        guard let frame = await Self.request(&frames), frame["path"]?.stringValue == "/v1/address",
            let address = frame["body"]?["address"]?.stringValue, !address.isEmpty
        else {
            socket.outbound.close(.goingAway)
            throw await Self.closed(socket, before: "the provisioning address arrived")
        }
        return DeviceLinking(
            code: ProvisioningCode(address: address, publicKey: ephemeral.publicKey),
            expiresAt: frame["body"]?["expiresAt"]?.intValue, ephemeral: ephemeral, socket: socket,
            configuration: configuration, http: http)
    }

    /// Waits for the provision, opens it, and registers this device with it: a new device of the
    /// provision's account, with the account's identity key.
    /// - Throws: `MessengerClientError`: `.server` with status 408 when the code expired,
    ///   `.protocolFailure` when the provision does not open with this device's key, and what
    ///   `MessengerClient.link` throws.
    public func finish() async throws -> MessengerClient {
        let provision = try await receiveProvision()
        return try await MessengerClient.link(
            configuration, token: provision.linkingToken, identity: provision.identity, http: http)
    }

    /// Waits for the provision and opens it, without registering anything.
    /// - Throws: as `finish()`.
    public func receiveProvision() async throws -> ProvisionMessage {
        defer { socket.outbound.close(.normalClosure) }
        var frames = socket.inbound.makeAsyncIterator()
        while let frame = await Self.request(&frames) {
            guard frame["path"]?.stringValue == "/v1/message" else { continue }
            guard let box = frame["body"]?["body"]?.stringValue.flatMap(Base64.decode) else {
                throw MessengerClientError(.server, "the provision frame carries no body")
            }
            do {
                return try ProvisioningCipher.open(box, with: ephemeral)
            } catch {
                throw MessengerClientError(
                    .protocolFailure, "the provision does not open with this device's key", underlying: error)
            }
        }
        throw await Self.closed(socket, before: "a provision arrived")
    }

    /// Closes the socket: the code stops working.
    public func cancel() { socket.outbound.close(.goingAway) }

    /// The next request frame as JSON, skipping anything else; `nil` once the socket closed.
    private static func request(_ frames: inout WebSocketInbound.AsyncIterator) async -> JSONValue? {
        while let message = await frames.next() {
            guard case .text(let text) = message, let frame = try? JSONParser.parse(text),
                frame["type"]?.stringValue == "request"
            else { continue }
            return frame
        }
        return nil
    }

    /// The error for a socket that closed too early, from its close code.
    private static func closed(_ socket: WebSocket, before what: String) async -> MessengerClientError {
        let close = await socket.closed()
        if let status = close.code.refusedStatus {
            let reason = close.reason.isEmpty ? "" : ": \(close.reason)"
            let message =
                status == .requestTimeout
                ? "the provisioning code expired before \(what); start linking again"
                : "the server closed the provisioning socket before \(what) (\(status.code)\(reason))"
            return MessengerClientError(.server, message, status: status.code)
        }
        return MessengerClientError(.transport, "the provisioning socket closed (\(close)) before \(what)")
    }
}
