import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One HTTP request a client library makes through its `DataTransport`.
public struct TransportRequest: Sendable {
    /// `GET` or `POST`.
    public var method: String
    /// The full URL.
    public var url: String
    /// Request headers.
    public var headers: [String: String]
    /// The body (the analytics SDK's uploads are gzipped already).
    public var body: [UInt8]?

    /// Creates a request.
    public init(method: String, url: String, headers: [String: String] = [:], body: [UInt8]? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// What came back: a response, or no response at all.
public enum TransportResult: Sendable, Equatable {
    /// The server answered (header names in lowercase).
    case response(status: Int, headers: [String: String], body: [UInt8])
    /// No answer: offline, refused, reset or timed out.
    case failure(String)
}

/// The client libraries' one network seam (Nuke's `DataLoading` is the model): the analytics
/// SDK's uploads and settings fetch and the flag client's fetches go through it, URLSession in
/// apps, a fake that implements it once in tests.
///
/// ```swift
/// struct Offline: DataTransport {
///     func send(_ request: TransportRequest) async -> TransportResult { .failure("offline") }
/// }
/// ```
public protocol DataTransport: Sendable {
    /// Sends one request; never throws — a failure is a `.failure` result.
    func send(_ request: TransportRequest) async -> TransportResult
}

/// The default transport over URLSession (which decodes `Content-Encoding: gzip` itself).
public final class URLSessionTransport: DataTransport {
    private let session: URLSession

    /// Creates a transport whose requests time out after `timeout` seconds.
    /// The session is ephemeral with no URL cache: nothing is cached on disk. (On Linux,
    /// Foundation itself still creates empty folders for its shared URL cache and cookie store
    /// when any session configuration is made; an executable that must not write there points
    /// `XDG_CACHE_HOME` and `XDG_DATA_HOME` elsewhere before its first request, as `courier` does.)
    public init(timeout: TimeInterval = 30) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.urlCache = nil
        session = URLSession(configuration: configuration)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// Sends the request with URLSession.
    public func send(_ request: TransportRequest) async -> TransportResult {
        guard let url = URL(string: request.url) else { return .failure("invalid URL") }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        if let body = request.body { urlRequest.httpBody = Data(body) }
        do {
            let (data, response) = try await session.data(for: urlRequest)
            guard let http = response as? HTTPURLResponse else { return .failure("not an HTTP response") }
            var headers: [String: String] = [:]
            for (key, value) in http.allHeaderFields {
                if let k = key as? String, let v = value as? String { headers[k.lowercased()] = v }
            }
            return .response(status: http.statusCode, headers: headers, body: [UInt8](data))
        } catch {
            return .failure(Self.describe(error))
        }
    }

    /// The failure in a few plain words a person can act on; Foundation's text on Linux ("Could
    /// not connect to the server.") does not say that the connection was refused.
    /// - Parameter error: what URLSession threw.
    public static func describe(_ error: any Error) -> String {
        guard let error = error as? URLError else { return error.localizedDescription }
        return switch error.code {
        case .cannotConnectToHost: "connection refused"
        case .timedOut: "no answer in time"
        case .cannotFindHost, .dnsLookupFailed: "unknown host"
        case .networkConnectionLost: "connection lost"
        case .notConnectedToInternet: "offline"
        default: error.localizedDescription
        }
    }
}
