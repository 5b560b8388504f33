import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a flag fetch got back.
public enum FlagTransportResult: Sendable, Equatable {
    /// The server answered (header names in lowercase).
    case response(status: Int, headers: [String: String], body: [UInt8])
    /// No answer: offline, refused, reset or timed out.
    case failure(String)
}

/// The client's network seam: URLSession in apps; anything that can send a GET.
public protocol FlagTransport: Sendable {
    /// Sends `GET url` with `headers`; never throws.
    func get(_ url: String, headers: [String: String]) async -> FlagTransportResult
}

/// The default transport over URLSession (which decodes `Content-Encoding: gzip` itself).
public final class URLSessionFlagTransport: FlagTransport {
    private let session: URLSession

    /// Creates a transport whose requests time out after `timeout` seconds.
    public init(timeout: TimeInterval = 15) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.urlCache = nil
        session = URLSession(configuration: configuration)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// Sends the request with URLSession.
    public func get(_ url: String, headers: [String: String]) async -> FlagTransportResult {
        guard let target = URL(string: url) else { return .failure("invalid URL") }
        var request = URLRequest(url: target)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        do {
            let (data, response) = try await session.data(for: request)
            guard let http = response as? HTTPURLResponse else { return .failure("not an HTTP response") }
            var lowered: [String: String] = [:]
            for (key, value) in http.allHeaderFields {
                if let k = key as? String, let v = value as? String { lowered[k.lowercased()] = v }
            }
            return .response(status: http.statusCode, headers: lowered, body: [UInt8](data))
        } catch {
            return .failure(error.localizedDescription)
        }
    }
}
