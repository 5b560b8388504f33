import CourierHTTP

/// A response to an image GET.
public struct ImageDataResponse: Sendable {
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
}

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
            let response = try await client.send("GET", url, headers: headers)
            return ImageDataResponse(status: response.status, headers: response.headers, body: response.body)
        } catch {
            if Task.isCancelled { throw CancellationError() }
            throw ImagePipelineError(.network, "GET \(url): \(error)", underlying: error)
        }
    }
}
