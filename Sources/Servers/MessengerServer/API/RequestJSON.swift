import CourierCore
import CourierHTTP

/// Reading the JSON bodies of the messenger's routes: a clear 400 for anything malformed.
struct RequestJSON {
    let value: JSONValue

    init(_ request: HTTPRequest) throws(HTTPError) {
        do {
            value = try JSONParser.parse(request.body)
        } catch {
            throw HTTPError.badRequest("the body is not valid JSON: \(error)")
        }
        guard value.objectValue != nil else { throw HTTPError.badRequest("the body must be a JSON object") }
    }

    init(value: JSONValue) { self.value = value }

    /// A body that arrived already parsed (a socket request's `body`); `nil` when it is missing.
    init(parsed: JSONValue?) throws(HTTPError) {
        guard let parsed, parsed.objectValue != nil else {
            throw HTTPError.badRequest("the body must be a JSON object")
        }
        value = parsed
    }

    subscript(key: String) -> RequestJSON? { value[key].map(RequestJSON.init(value:)) }

    func string(_ key: String, maximumBytes: Int = 1_024) throws(HTTPError) -> String {
        guard let text = value[key]?.stringValue, !text.isEmpty, text.utf8.count <= maximumBytes,
            !text.utf8.contains(0)
        else {
            throw HTTPError.badRequest("\(key) must be a string of 1–\(maximumBytes) bytes without U+0000")
        }
        return text
    }

    func int(_ key: String, in range: ClosedRange<Int64> = Int64.min...Int64.max) throws(HTTPError) -> Int64 {
        guard let number = value[key]?.intValue, range.contains(number) else {
            throw HTTPError.badRequest("\(key) must be an integer in \(range.lowerBound)…\(range.upperBound)")
        }
        return number
    }

    /// The bytes of a base64 field: strict (`Base64.decodeStrict`: padding optional, no stray
    /// `=`, no unused bits) and never empty.
    func bytes(_ key: String, count: Int? = nil, maximum: Int = 1 << 20) throws(HTTPError) -> [UInt8] {
        guard let text = value[key]?.stringValue, let bytes = Base64.decodeStrict(text), bytes.count <= maximum else {
            throw HTTPError.badRequest("\(key) must be non-empty standard base64")
        }
        if let count, bytes.count != count {
            throw HTTPError.badRequest("\(key) must be \(count) bytes, got \(bytes.count)")
        }
        return bytes
    }

    func array(_ key: String) throws(HTTPError) -> [RequestJSON] {
        guard let items = value[key]?.arrayValue else { throw HTTPError.badRequest("\(key) must be an array") }
        return items.map(RequestJSON.init(value:))
    }
}
