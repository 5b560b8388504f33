/// Why an image could not be loaded: the one error type of `ImagePipeline` (with
/// `CancellationError` when the caller's task was cancelled).
public struct ImagePipelineError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, as an extensible set: new codes are not a breaking change.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: String {
            case emptyData = "empty_data"
            case corruptImage = "corrupt_image"
            case truncatedImage = "truncated_image"
            case imageTooLarge = "image_too_large"
            case unsupportedFormat = "unsupported_format"
            case wrongContentType = "wrong_content_type"
            case badStatus = "bad_status"
            case network
            case disk
        }

        private let value: Value

        /// The data was zero bytes long.
        public static let emptyData = Code(value: .emptyData)
        /// The decoder refused the data as damaged.
        public static let corruptImage = Code(value: .corruptImage)
        /// The data ended before the image did.
        public static let truncatedImage = Code(value: .truncatedImage)
        /// The header announces more pixels than the limits allow (a decompression bomb).
        public static let imageTooLarge = Code(value: .imageTooLarge)
        /// Not JPEG, PNG or WebP (or not a format the platform's decoder reads).
        public static let unsupportedFormat = Code(value: .unsupportedFormat)
        /// The server answered with a `Content-Type` that is not an image.
        public static let wrongContentType = Code(value: .wrongContentType)
        /// The server answered with a status other than 200, 206 or 304.
        public static let badStatus = Code(value: .badStatus)
        /// No response arrived (refused, reset, timeout).
        public static let network = Code(value: .network)
        /// The disk cache could not be read or written.
        public static let disk = Code(value: .disk)

        /// The code's stable name, such as `truncated_image`.
        public var description: String { value.rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// A sentence for logs.
    public let message: String
    /// The error underneath, if any.
    public let underlying: (any Error)?

    /// Creates an error.
    public init(_ code: Code, _ message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }
}
