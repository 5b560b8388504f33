extension HTTPRequest {
    /// A copy of the request with the header `name` set to `value` (replacing any it had), for
    /// middleware that vouches for a request, such as a session that stands for a bearer token.
    /// - Parameters:
    ///   - name: the header name (any case; stored in lowercase).
    ///   - value: its value.
    public func settingHeader(_ name: String, _ value: String) -> HTTPRequest {
        var headers = self.headers
        headers[name.lowercased()] = value
        var copy = HTTPRequest(
            method: method, path: path, queryString: queryString, headers: headers, body: body,
            remoteAddress: remoteAddress)
        copy.pathParameters = pathParameters
        copy.bodyFeed = bodyFeed
        copy.peerAddress = peerAddress
        return copy
    }

    /// The cookie `name` of the `Cookie` header, if present.
    public func cookie(_ name: String) -> String? {
        guard let header = header("cookie") else { return nil }
        for pair in header.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, String(parts[0]).trimmingCharactersInWhitespace() == name else { continue }
            return String(parts[1]).trimmingCharactersInWhitespace()
        }
        return nil
    }
}
