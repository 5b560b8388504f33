import CourierCrypto
import CourierHTTP
import Foundation

/// `GET /openapi.json`: `OpenAPIDocument` for third-party clients and tools, with a strong `ETag`
/// (the document's SHA-256), so a client revalidates with `If-None-Match` and gets a 304. Any
/// origin may read it, so an API browser on another host can load it.
enum OpenAPIRoute {
    static func mount(on router: inout Router) {
        let body = Array(OpenAPIDocument.json.utf8)
        let etag = "\"" + Digest.sha256(body).prefix(16).map { hex($0) }.joined() + "\""
        let headers = [("ETag", etag), ("Cache-Control", "no-cache")]
        router.add("GET", "/openapi.json", crossOrigin: .anyOrigin) { request in
            if let tags = request.header("if-none-match"), matches(tags, etag) {
                return HTTPResponse(status: 304, headers: headers)
            }
            return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")] + headers, body: body)
        }
    }

    /// `If-None-Match`: `*`, or a comma-separated list holding the tag (weak or strong).
    static func matches(_ header: String, _ etag: String) -> Bool {
        header.split(separator: ",").contains { part in
            let tag = part.trimmingCharacters(in: .whitespaces)
            return tag == "*" || tag == etag || tag == "W/" + etag
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0f)]])
    }
}
