import CourierCore
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A response read by `HTTPClient`.
public struct HTTPClientResponse: Sendable {
    /// The status code.
    public let status: Int
    /// Header names in lowercase.
    public let headers: [String: String]
    /// The body.
    public let body: [UInt8]

    /// Creates a response.
    public init(status: Int, headers: [String: String], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The body parsed as JSON, or `nil`.
    public var json: JSONValue? { try? JSONParser.parse(body) }

    /// The header `name` (any case).
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// Why an HTTP exchange failed before a response arrived.
public struct HTTPClientError: Error, Sendable, CustomStringConvertible {
    /// A sentence for logs.
    public let message: String
    /// Whether the request timed out.
    public let isTimeout: Bool

    /// Creates an error.
    public init(message: String, isTimeout: Bool) {
        self.message = message
        self.isTimeout = isTimeout
    }

    /// The message.
    public var description: String { message }
}

/// The HTTP client transport: URLSession on every platform (Linux's URLSession speaks HTTP
/// through libcurl). One instance keeps its connections alive across requests.
public final class HTTPClient: Sendable {
    private let session: URLSession

    /// Creates a client whose requests time out after `timeout`.
    /// The session is ephemeral with no URL cache: nothing is cached on disk. (On Linux,
    /// Foundation itself still creates empty folders for its shared URL cache and cookie store
    /// when any session configuration is made; an executable that must not write there points
    /// `XDG_CACHE_HOME` and `XDG_DATA_HOME` elsewhere before its first request, as `courier` does.)
    public init(timeout: Duration = .seconds(30)) {
        let configuration = URLSessionConfiguration.ephemeral
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        configuration.timeoutIntervalForRequest = seconds
        configuration.timeoutIntervalForResource = seconds
        configuration.httpMaximumConnectionsPerHost = 8
        configuration.urlCache = nil
        session = URLSession(configuration: configuration)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// Sends one request.
    /// - Parameters:
    ///   - method: `GET`, `POST`, …
    ///   - url: the full URL.
    ///   - headers: request headers.
    ///   - body: the body, if any.
    /// - Throws: `HTTPClientError` when no response arrives (refused, reset, timeout).
    public func send(
        _ method: String, _ url: String, headers: [String: String] = [:],
        body: [UInt8]? = nil
    ) async throws -> HTTPClientResponse {
        guard let target = URL(string: url) else {
            throw HTTPClientError(message: "invalid URL \(url)", isTimeout: false)
        }
        var request = URLRequest(url: target)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body { request.httpBody = Data(body) }
        do {
            let (data, response) = try await session.data(for: request)
            guard let http = response as? HTTPURLResponse else {
                throw HTTPClientError(message: "not an HTTP response", isTimeout: false)
            }
            var lowered: [String: String] = [:]
            for (key, value) in http.allHeaderFields {
                if let k = key as? String, let v = value as? String { lowered[k.lowercased()] = v }
            }
            return HTTPClientResponse(status: http.statusCode, headers: lowered, body: [UInt8](data))
        } catch let error as HTTPClientError {
            throw error
        } catch let error as URLError {
            throw HTTPClientError(
                message: URLSessionTransport.describe(error), isTimeout: error.code == .timedOut)
        } catch {
            throw HTTPClientError(message: "\(error)", isTimeout: false)
        }
    }

    /// Sends a JSON body.
    /// - Throws: `HTTPClientError`.
    public func sendJSON(
        _ method: String, _ url: String, _ value: JSONValue,
        headers: [String: String] = [:]
    ) async throws -> HTTPClientResponse {
        var all = headers
        all["Content-Type"] = "application/json"
        return try await send(method, url, headers: all, body: JSONWriter.encode(value))
    }
}
