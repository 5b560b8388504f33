/// The client behind a proxy: a connection from a trusted proxy (haproxy) names the client in
/// `X-Forwarded-For`, each proxy appending the address it saw, so the right-most address that is
/// not a trusted proxy is the client; anything left of it may be forged. A connection from
/// anyone else is its own client, whatever it claims.
enum ForwardedClient {
    /// The client's address for a request from `peer` carrying `forwardedFor`.
    /// - Parameters:
    ///   - peer: the connection's peer address.
    ///   - forwardedFor: the `X-Forwarded-For` header (several joined with `, `), if any.
    ///   - trustedProxies: the proxies' networks; empty trusts none.
    static func address(peer: String, forwardedFor: String?, trustedProxies: [IPNetwork]) -> String {
        guard !trustedProxies.isEmpty, let forwardedFor, let peerAddress = IPAddress(peer),
            isTrusted(peerAddress, trustedProxies)
        else { return peer }
        var client = peerAddress
        for entry in forwardedFor.split(separator: ",").reversed() {
            guard let address = IPAddress(String(entry).trimmingCharactersInWhitespace()) else { break }
            client = address
            if !isTrusted(address, trustedProxies) { break }
        }
        return client.description
    }

    private static func isTrusted(_ address: IPAddress, _ networks: [IPNetwork]) -> Bool {
        networks.contains { $0.contains(address) }
    }
}
