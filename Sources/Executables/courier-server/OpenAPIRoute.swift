import CourierCore
import CourierCrypto
import CourierHTTP
import Foundation

/// `GET /openapi.json`: `OpenAPIDocument` for third-party clients and tools, with a strong `ETag`
/// (the document's SHA-256), so a client revalidates with `If-None-Match` and gets a 304. Any
/// origin may read it, so an API browser on another host can load it. It is served from memory,
/// on the engine's loop.
enum OpenAPIRoute {
    static func mount(on router: inout Router) {
        let body = Array(OpenAPIDocument.json.utf8)
        let etag = "\"" + Digest.sha256(body).prefix(16).map { hex($0) }.joined() + "\""
        let headers = [("ETag", etag), ("Cache-Control", "no-cache")]
        router.add("GET", "/openapi.json", crossOrigin: .anyOrigin, execution: .onLoop) { request in
            if let tags = request.header("if-none-match"), matches(tags, etag) {
                return HTTPResponse(status: 304, headers: headers)
            }
            return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")] + headers, body: body)
        }
    }

    /// The routes of `router` that the document does not describe, as `METHOD /pattern`.
    /// `courier-server` names each on standard error at startup, and `OpenAPIContractTests` fails
    /// on that line, so a route cannot be added without its description.
    static func undocumentedRoutes(of router: Router) -> [String] {
        guard let paths = (try? JSONParser.parse(OpenAPIDocument.json))?["paths"]?.objectValue else {
            return ["the document has no paths"]
        }
        var documented = Set<String>()
        for (path, item) in paths {
            for method in (item.objectValue ?? [:]).keys { documented.insert(method.uppercased() + " " + shape(path)) }
        }
        return router.routeTable.map { "\($0.method) \($0.pattern)" }.filter { route in
            let parts = route.split(separator: " ", maxSplits: 1)
            return !documented.contains(parts[0] + " " + shape(String(parts[1])))
        }
    }

    /// A path pattern with its parameters' names left out: `/v1/things/{}`.
    private static func shape(_ pattern: String) -> String {
        var result = ""
        var inParameter = false
        for character in pattern {
            if character == "{" {
                inParameter = true
                result.append("{}")
            } else if character == "}" {
                inParameter = false
            } else if !inParameter {
                result.append(character)
            }
        }
        return result
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
