import CourierCore

/// Why an image could not be loaded: the one error type of `ImagePipeline` (with
/// `CancellationError` when the caller's task was cancelled).
public typealias ImagePipelineError = CodedError<ImagePipelineErrorCode>

/// What went wrong loading an image, as an extensible set: new codes are not a breaking change.
public struct ImagePipelineErrorCode: ErrorCode {
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
    public static let emptyData = Self(value: .emptyData)
    /// The decoder refused the data as damaged.
    public static let corruptImage = Self(value: .corruptImage)
    /// The data ended before the image did.
    public static let truncatedImage = Self(value: .truncatedImage)
    /// The header announces more pixels than the limits allow (a decompression bomb).
    public static let imageTooLarge = Self(value: .imageTooLarge)
    /// Not JPEG, PNG or WebP (or not a format the platform's decoder reads).
    public static let unsupportedFormat = Self(value: .unsupportedFormat)
    /// The server answered with a `Content-Type` that is not an image.
    public static let wrongContentType = Self(value: .wrongContentType)
    /// The server answered with a status other than 200, 206 or 304.
    public static let badStatus = Self(value: .badStatus)
    /// No response arrived (refused, reset, timeout).
    public static let network = Self(value: .network)
    /// The disk cache could not be read or written.
    public static let disk = Self(value: .disk)

    /// The code's stable name, such as `truncated_image`.
    public var name: String { value.rawValue }
}
