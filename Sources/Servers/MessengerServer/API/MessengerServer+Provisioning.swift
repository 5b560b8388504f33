import CourierCore
import CourierHTTP

extension MessengerServer {
    /// Linking a device as Signal does (docs/messenger-server.md, "Provisioning"):
    /// - `GET /v1/websocket/provisioning/`: an unauthenticated socket for the device being
    ///   linked; its first frame carries a random address (`ProvisioningFrame`);
    /// - `PUT /v1/provisioning/{address}` with `{"body": base64}`: a device of the account
    ///   hands that socket a provision sealed to the new device's key. 204 when a socket took
    ///   it, 404 when none holds the address (unknown, expired or already provisioned), 413 over
    ///   `maximumProvisionBytes`.
    func mountProvisioning(on router: inout Router) {
        var socketConfiguration = WebSocketConfiguration()
        // The device being linked sends nothing the server needs; whatever it sends is small.
        socketConfiguration.maximumMessageBytes = 1_024
        socketConfiguration.maximumBufferedMessages = 4
        socketConfiguration.maximumQueuedBytes = 64 * 1024
        // The router ignores a trailing slash: Signal's clients ask for `…/provisioning/`.
        router.webSocket("/v1/websocket/provisioning", configuration: socketConfiguration) {
            [provisioning] socket, _, _ in
            await provisioning.serve(socket)
        }
        router.add("PUT", "/v1/provisioning/{address}") { [self] request, _ in try await provision(request) }
    }

    private func provision(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        let device = try device(request)
        guard request.body.count <= configuration.maximumProvisionBytes else {
            throw HTTPError(
                .payloadTooLarge, "a provision may be \(configuration.maximumProvisionBytes) bytes at most")
        }
        try Self.limit(linkingLimiter, device.accountId)
        let body = try RequestJSON(request).bytes("body", maximum: configuration.maximumProvisionBytes)
        let address = request.pathParameters["address"] ?? ""
        guard try await provisioning.relay(body, to: address) else {
            throw HTTPError(.notFound, "no device is waiting at this provisioning address (expired or already linked)")
        }
        return HTTPResponse(status: 204)
    }
}
