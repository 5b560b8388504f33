import CourierCore
import CourierHTTP
import Foundation

/// The collector's settings and events endpoints, for the CLI.
struct AdminClient {
    let server: String
    let token: String?
    let http = HTTPClient(timeout: .seconds(30))

    func settings(writeKey: String) async throws -> JSONValue {
        try check(try await http.send("GET", "\(server)/v1/projects/\(Self.escape(writeKey))/settings"))
    }

    func updateSettings(writeKey: String, patch: JSONValue) async throws -> JSONValue {
        try check(
            try await http.sendJSON(
                "PUT", "\(server)/v1/projects/\(Self.escape(writeKey))/settings", patch,
                headers: adminHeaders()))
    }

    func events(writeKey: String, after: String, limit: Int) async throws -> JSONValue {
        let url = "\(server)/v1/events?writeKey=\(Self.escape(writeKey))&after=\(Self.escape(after))&limit=\(limit)"
        return try check(try await http.send("GET", url, headers: adminHeaders()))
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

    func check(_ response: HTTPClientResponse) throws -> JSONValue {
        let json = response.json ?? .null
        guard (200..<300).contains(response.status) else {
            let message = json["error"]?["message"]?.stringValue ?? String(decoding: response.body, as: UTF8.self)
            throw CommandError("server answered \(response.status): \(message)")
        }
        return json
    }
}

extension AdminClient {
    /// An admin request with the bearer token and an optional JSON body.
    func admin(_ method: String, _ path: String, body: JSONValue? = nil) async throws -> JSONValue {
        var headers = try adminHeaders()
        if body != nil { headers["Content-Type"] = "application/json" }
        return try check(
            try await http.send(method, server + path, headers: headers, body: body.map(JSONWriter.encode)))
    }

    /// A `POST` of JSON without the admin token (public routes such as flag evaluation).
    func post(_ path: String, body: JSONValue) async throws -> JSONValue {
        try check(try await http.sendJSON("POST", server + path, body))
    }
}
