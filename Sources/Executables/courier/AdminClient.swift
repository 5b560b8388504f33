import CourierCore
import CourierHTTP
import Foundation

/// The collector's settings and events endpoints, for the CLI.
struct AdminClient {
    let server: String
    let token: String?
    let http = HTTPClient(timeout: .seconds(30))

    func settings(writeKey: String) async throws -> JSONValue {
        try check(
            try await exchange { try await http.send("GET", "\(server)/v1/projects/\(Self.escape(writeKey))/settings") }
        )
    }

    func updateSettings(writeKey: String, patch: JSONValue) async throws -> JSONValue {
        let headers = try adminHeaders()
        return try check(
            try await exchange {
                try await http.sendJSON(
                    "PUT", "\(server)/v1/projects/\(Self.escape(writeKey))/settings", patch, headers: headers)
            })
    }

    func events(writeKey: String, after: String, limit: Int) async throws -> JSONValue {
        let url = "\(server)/v1/events?writeKey=\(Self.escape(writeKey))&after=\(Self.escape(after))&limit=\(limit)"
        let headers = try adminHeaders()
        return try check(try await exchange { try await http.send("GET", url, headers: headers) })
    }

    /// Percent-encodes everything but unreserved characters (RFC 3986).
    static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~")))
            ?? text
    }

    func adminHeaders() throws -> [String: String] {
        guard let token else { throw CommandError("an admin token is needed: --admin-token or COURIER_ADMIN_TOKEN") }
        return ["Authorization": "Bearer \(token)"]
    }

    /// The answer's JSON, or an error that says what went wrong in the user's terms: a refused
    /// token, an unknown write key, or the server's own message; never only the route.
    func check(_ response: HTTPClientResponse) throws -> JSONValue {
        let json = response.json ?? .null
        guard (200..<300).contains(response.status) else {
            let code = json["error"]?["code"]?.stringValue
            let message = json["error"]?["message"]?.stringValue
            let status = response.status
            switch (status, message) {
            case (401, _):
                throw CommandError(
                    "the server refused the admin token (--admin-token or COURIER_ADMIN_TOKEN)", status: status)
            case (_, nil):
                throw CommandError("\(server) is not a Courier server (unexpected answer: \(status))", status: status)
            case (_, let message?):
                throw CommandError("\(message) (\(status)\(code.map { " \($0)" } ?? ""))", status: status)
            }
        }
        return json
    }

    /// Sends through `http`, naming the server when no answer comes.
    func exchange(_ send: () async throws -> HTTPClientResponse) async throws -> HTTPClientResponse {
        do {
            return try await send()
        } catch let error as HTTPClientError {
            throw CommandError(
                "\(error.message) to \(server) (is courier-server running there? --server or COURIER_SERVER say where)")
        }
    }
}

extension AdminClient {
    /// An admin request with the bearer token, an optional JSON body and more headers.
    func admin(_ method: String, _ path: String, body: JSONValue? = nil, headers extra: [String: String] = [:])
        async throws -> JSONValue
    {
        var headers = try adminHeaders().merging(extra) { _, added in added }
        if body != nil { headers["Content-Type"] = "application/json" }
        let request = headers
        return try check(
            try await exchange {
                try await http.send(method, server + path, headers: request, body: body.map(JSONWriter.encode))
            })
    }

    /// A `POST` of JSON without the admin token (public routes such as flag evaluation).
    func post(_ path: String, body: JSONValue) async throws -> JSONValue {
        try check(try await exchange { try await http.sendJSON("POST", server + path, body) })
    }
}
