/// An HTTP request method. Written as a string literal where a method is expected
/// (`router.add("POST", …)`), compared with one (`request.method == "GET"`), or with the
/// constants.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The method as sent, in upper case.
    public let rawValue: String

    /// A method; its name is upper-cased.
    public init(rawValue: String) { self.rawValue = rawValue.uppercased() }

    /// A method from a literal.
    public init(stringLiteral value: String) { self.init(rawValue: value) }

    /// `GET`
    public static let get: HTTPMethod = "GET"
    /// `HEAD`
    public static let head: HTTPMethod = "HEAD"
    /// `POST`
    public static let post: HTTPMethod = "POST"
    /// `PUT`
    public static let put: HTTPMethod = "PUT"
    /// `PATCH`
    public static let patch: HTTPMethod = "PATCH"
    /// `DELETE`
    public static let delete: HTTPMethod = "DELETE"
    /// `OPTIONS`
    public static let options: HTTPMethod = "OPTIONS"

    /// The method's name.
    public var description: String { rawValue }
}
