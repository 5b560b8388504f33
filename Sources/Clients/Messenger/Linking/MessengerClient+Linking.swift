import CourierHTTPClient
import SignalProtocol

extension MessengerClient {
    /// Starts linking a new device (this one) to an existing account: makes an ephemeral key
    /// pair and opens the server's provisioning socket. Show the result's `code`; its `finish()`
    /// completes once a device of the account has run `provision(_:)` with that code.
    /// - Parameters:
    ///   - configuration: the new device's (its server, directory, key provider, name).
    ///   - sockets: the engine's WebSocket client.
    /// - Throws: `MessengerClientError` (`.transport` when the socket does not open, `.server`
    ///   with status 503 when the server has too many devices waiting).
    public static func startLinking(
        _ configuration: MessengerClientConfiguration, sockets: WebSocketClient, http: HTTPClient = HTTPClient()
    ) async throws -> DeviceLinking {
        try await DeviceLinking.start(configuration, sockets: sockets, http: http)
    }

    /// Links the device that shows `code` to this account: a one-use linking token and the
    /// account's identity key pair, sealed to the code's ephemeral key and relayed by the server
    /// to the socket the code names. Nothing is written to disk.
    /// - Throws: `MessengerClientError`: `.invalidArgument` with status 404 when no device waits
    ///   at the code's address (expired, already linked, another server), `.server`, `.transport`.
    public func provision(_ code: ProvisioningCode) async throws {
        let token = try await linkingToken()
        let message = ProvisionMessage(
            identity: identityKeyPair(), accountId: credentials.accountId, linkingToken: token)
        let box: [UInt8]
        do {
            box = try ProvisioningCipher.seal(message, to: code.publicKey)
        } catch {
            throw MessengerClientError(.protocolFailure, "the provision could not be sealed", underlying: error)
        }
        guard try await api.provision(box, to: code.address, as: credentials) else {
            throw MessengerClientError(
                .invalidArgument,
                "no device is waiting for this code: it expired, was used, or was made by another server", status: 404)
        }
    }

    /// The `ws`/`wss` URL of `path` on the server at `serverURL` (`http`/`https`).
    static func socketURL(_ serverURL: String, path: String) -> String {
        var url = serverURL
        if url.hasPrefix("https://") {
            url = "wss://" + url.dropFirst("https://".count)
        } else if url.hasPrefix("http://") {
            url = "ws://" + url.dropFirst("http://".count)
        }
        while url.hasSuffix("/") { url.removeLast() }
        return url + path
    }
}
