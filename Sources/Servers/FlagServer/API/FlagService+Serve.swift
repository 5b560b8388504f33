import CourierCore
import CourierHTTP
import FlagRules
import Foundation

extension FlagService {
    /// `GET /v1/flags/{envKey}`: the environment's definitions, with `ETag` (304 on
    /// `If-None-Match`) and gzip when the client accepts it.
    func getDefinitions(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let key = try environmentKey(request)
        guard let served = try servedEnvironment(key) else {
            throw HTTPError(.notFound, "no flags are defined for environment \(key)")
        }
        return Self.definitionsAnswer(served, to: request)
    }

    /// The definitions' answer when the environment is cached, or known not to exist, on the
    /// engine's loop; `nil` sends the request to `getDefinitions`, which reads the store.
    func cachedDefinitions(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse? {
        let key = try environmentKey(request)
        let cached = served.lookup(key)
        if cached.isUnknown { throw HTTPError(.notFound, "no flags are defined for environment \(key)") }
        return cached.entry.map { Self.definitionsAnswer($0, to: request) }
    }

    private static func definitionsAnswer(_ served: Served, to request: HTTPRequest) -> HTTPResponse {
        var headers = [("ETag", served.etag), ("Cache-Control", "no-cache"), ("Vary", "Accept-Encoding")]
        if let tags = request.header("if-none-match"), matches(tags, served.etag) {
            return HTTPResponse(status: 304, headers: headers)
        }
        headers.append(("Content-Type", "application/json"))
        if let gzipped = served.gzipped, acceptsGzip(request.header("accept-encoding")) {
            headers.append(("Content-Encoding", "gzip"))
            return HTTPResponse(status: 200, headers: headers, body: gzipped)
        }
        return HTTPResponse(status: 200, headers: headers, body: served.body)
    }

    /// `POST /v1/flags/{envKey}/evaluate`: every flag's evaluation details for the context in the
    /// body, by the same rule evaluator the Swift client runs.
    func evaluate(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let key = try environmentKey(request)
        guard request.body.count <= configuration.maximumEvaluationBytes else {
            throw HTTPError(.invalidRequest, "the body is over \(configuration.maximumEvaluationBytes) bytes")
        }
        let body: JSONValue
        do {
            body = request.body.isEmpty ? [:] : try JSONParser.parse(request.body)
        } catch {
            throw HTTPError(.invalidRequest, "invalid JSON: \(error)")
        }
        guard case .object = body else { throw HTTPError(.invalidRequest, "the body must be an object") }
        guard let served = try servedEnvironment(key) else {
            throw HTTPError(.notFound, "no flags are defined for environment \(key)")
        }
        let context = EvaluationContext(json: body["context"] ?? body)
        var answers: [String: JSONValue] = [:]
        let keys = body["flags"]?.arrayValue?.compactMap(\.stringValue) ?? Array(served.document.flags.keys)
        // Each flag is evaluated once however often it is named, and a list naming more than
        // 100 different flags the environment does not define is refused: the answer's size and
        // the work stay bounded by the definitions, not by the body.
        let unknown = Set(keys).filter { served.document.flags[$0] == nil }.count
        guard unknown <= Self.maximumUnknownFlagsAnswered else {
            throw HTTPError(
                .invalidRequest,
                "the request names \(unknown) flags this environment does not define; at most "
                    + "\(Self.maximumUnknownFlagsAnswered) are answered")
        }
        for flagKey in keys where answers[flagKey] == nil {
            if let flag = served.document.flags[flagKey] {
                answers[flagKey] = RuleEvaluator.evaluate(flag, context: context).json
            } else {
                answers[flagKey] =
                    Resolution(
                        value: nil, reason: .error, errorCode: .flagNotFound, errorMessage: "no flag \(flagKey)"
                    ).json
            }
        }
        return .json([
            "environment": .string(key), "version": .int(served.document.version), "flags": .object(answers),
        ])
    }

    /// Different undefined flags an evaluation may name (each is answered `FLAG_NOT_FOUND`).
    public static let maximumUnknownFlagsAnswered = 100

    func environmentKey(_ request: HTTPRequest) throws(HTTPError) -> String {
        let key = request.pathParameters["envKey"] ?? ""
        guard FlagService.isKey(key) else {
            throw HTTPError(
                .invalidRequest, "an environment key is 1–128 characters of letters, digits, '.', '_' or '-'")
        }
        return key
    }

    static func isKey(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 128
            && text.utf8.allSatisfy { c in
                (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c == 46 || c == 95 || c == 45
            }
    }

    /// `If-None-Match`: `*`, or a comma-separated list holding the tag (weak or strong).
    static func matches(_ header: String, _ etag: String) -> Bool {
        header.split(separator: ",").contains { part in
            let tag = part.trimmingCharacters(in: .whitespaces)
            return tag == "*" || tag == etag || tag == "W/" + etag
        }
    }

    static func acceptsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        return header.split(separator: ",").contains { part in
            let fields = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.first?.lowercased() == "gzip" else { return false }
            return !fields.dropFirst().contains { $0.replacingOccurrences(of: " ", with: "") == "q=0" }
        }
    }
}
