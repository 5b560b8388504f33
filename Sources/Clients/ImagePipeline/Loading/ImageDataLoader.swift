import CourierHTTPClient

/// A response to an image GET: the HTTP client's response type.
public typealias ImageDataResponse = HTTPClientResponse

/// Fetches image bytes: the network tier's seam.
public protocol ImageDataLoader: Sendable {
    /// GETs `url` with `headers` (validators such as `If-None-Match`).
    /// - Throws: `ImagePipelineError` (`network`) or `CancellationError`.
    func get(_ url: String, headers: [String: String]) async throws -> ImageDataResponse
}

/// The network tier over Courier's HTTP client (URLSession on every platform).
public struct HTTPImageDataLoader: ImageDataLoader {
    private let client: HTTPClient

    /// Creates a loader whose requests time out after `timeout`.
    public init(timeout: Duration = .seconds(30)) { client = HTTPClient(timeout: timeout) }

    /// GETs `url`; URLSession's task is cancelled with the calling task.
    /// - Throws: `ImagePipelineError` (`network`) or `CancellationError`.
    public func get(_ url: String, headers: [String: String]) async throws -> ImageDataResponse {
        do {
            return try await client.send("GET", url, headers: headers)
        } catch {
            if Task.isCancelled { throw CancellationError() }
            throw ImagePipelineError(.network, "GET \(url): \(error)", underlying: error)
        }
    }
}
