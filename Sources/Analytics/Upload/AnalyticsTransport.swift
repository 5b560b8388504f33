import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One HTTP request the SDK makes.
public struct TransportRequest: Sendable {
    /// `GET` or `POST`.
    public var method: String
    /// The full URL.
    public var url: String
    /// Request headers.
    public var headers: [String: String]
    /// The body (already gzipped for uploads).
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
    /// The server answered.
    case response(status: Int, headers: [String: String], body: [UInt8])
    /// No answer: offline, refused, reset or timed out.
    case failure(String)
}

/// The SDK's network seam: URLSession in apps, fakes in tests.
public protocol AnalyticsTransport: Sendable {
    /// Sends one request; never throws — a failure is a `.failure` result.
    func send(_ request: TransportRequest) async -> TransportResult
}

/// The default transport over URLSession.
public final class URLSessionTransport: AnalyticsTransport {
    private let session: URLSession

    /// Creates a transport whose requests time out after `timeout` seconds.
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
            return .failure(error.localizedDescription)
        }
    }
}
