import CourierCore
import CourierHTTP
import CourierPostgres
import FlagRules
import Foundation

/// The admin routes; `AdminAuthMiddleware` guards them (`mount(on:)`).
extension FlagService {
    /// `PUT /v1/flags/{envKey}/definitions/{flagKey}` (admin): validates the definition against
    /// the environment and stores it with an audit row; a malformed one is refused with 422.
    /// With `If-Match: "<version>"` (the `ETag` of `GET …/definitions`) it is stored only if the
    /// environment is still at that version, else refused with 412 (`environment_changed`): an
    /// editor that changed part of what it read does not write over an edit made since
    /// (`EditPrecondition`). The answer's `ETag` is the new version.
    func putDefinition(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        try putKeyed(request, subject: .flag, keyParameter: "flagKey")
    }

    /// `POST /v1/flags/{envKey}/definitions/{flagKey}/kill` (admin): turns the kill switch on;
    /// with `If-Match`, only at that version of the environment (412 otherwise).
    /// The flag's definition is read from the store inside the edit, not from this instance's
    /// cache: a cache that missed another instance's edit would otherwise store its older
    /// definition back.
    func kill(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let environment = try environmentKey(request)
        let flagKey = try pathKey(request, "flagKey")
        let actor = Self.actor(of: request)
        let precondition = try EditPrecondition(request)
        let (version, killed) = try change(environment: environment) { stored throws(HTTPError) in
            try precondition.check(stored, environment: environment, subject: .flag, key: flagKey)
            guard case .object(var object) = stored.flags.first(where: { $0["key"]?.stringValue == flagKey }) else {
                throw HTTPError(.notFound, "no flag \(flagKey) in environment \(environment)")
            }
            object["enabled"] = false
            return FlagChange(subject: .flag, key: flagKey, action: "kill", definition: .object(object), actor: actor)
        }
        return .json(
            ["version": .int(version), "flag": killed.definition], headers: [("ETag", EditPrecondition.tag(version))])
    }

    /// `PUT /v1/flags/{envKey}/segments/{segmentKey}` (admin): stores a segment.
    func putSegment(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        try putKeyed(request, subject: .segment, keyParameter: "segmentKey")
    }

    /// Stores the request's definition of a flag or a segment under the key in the path (an
    /// audited `set` change) and answers the environment's new version with the definition,
    /// named after its subject (`"flag"` or `"segment"`).
    /// - Parameters:
    ///   - subject: whether the body defines a flag or a segment.
    ///   - keyParameter: the path parameter that holds its key.
    private func putKeyed(_ request: HTTPRequest, subject: FlagChange.Subject, keyParameter: String)
        throws(HTTPError) -> HTTPResponse
    {
        let environment = try environmentKey(request)
        let key = try pathKey(request, keyParameter)
        let definition = try keyedDefinition(request, key: key)
        let precondition = try EditPrecondition(request)
        let actor = Self.actor(of: request)
        let (version, _) = try change(environment: environment) { stored throws(HTTPError) in
            try precondition.check(stored, environment: environment, subject: subject, key: key)
            return FlagChange(subject: subject, key: key, action: "set", definition: definition, actor: actor)
        }
        return .json(
            [
                "version": .int(version), subject.rawValue: definition,
            ], headers: [("ETag", EditPrecondition.tag(version))])
    }

    /// `GET /v1/flags/{envKey}/definitions[?expired=true]` (admin): the definitions, or only
    /// those past their expiry day, and the environment's segments. Read from the store, not
    /// from the served cache, which may be a moment behind another instance's edit: an editor
    /// reads this before changing a definition, and sends its `ETag` (the version) back as
    /// `If-Match` with the change.
    func listDefinitions(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let environment = try environmentKey(request)
        guard let document = try storedDocument(environment) else {
            throw HTTPError(.notFound, "no flags are defined for environment \(environment)")
        }
        var flags = document.flags.values.sorted { $0.key < $1.key }
        if request.query["expired"] == "true" {
            let today = String(Timestamp.format(milliseconds: clock.nowMilliseconds).prefix(10))
            flags = flags.filter { $0.isExpired(today: today) }
        }
        return .json(
            [
                "environment": .string(environment), "version": .int(document.version),
                "flags": .array(flags.map(\.json)), "segments": document.json["segments"] ?? [],
            ], headers: [("ETag", EditPrecondition.tag(document.version))])
    }

    /// `GET /v1/flags` (admin): every environment that has definitions, by key, with its
    /// version: what the console offers in its environment selector.
    func listEnvironments(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let versions: [String: Int64]
        do {
            versions = try store.versions()
        } catch {
            throw HTTPError(.storageUnavailable, "the flag store is unavailable")
        }
        let environments = versions.sorted { $0.key < $1.key }.map { key, version -> JSONValue in
            ["key": .string(key), "version": .int(version)]
        }
        return .json(["environments": .array(environments)])
    }

    /// `GET /v1/flags/{envKey}/audit[?limit=N]` (admin): changes, newest first.
    func audit(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let environment = try environmentKey(request)
        var limit = 100
        if let text = request.query["limit"] {
            guard let value = Int(text), (1...1000).contains(value) else {
                throw HTTPError(.invalidRequest, "limit must be an integer from 1 to 1000")
            }
            limit = value
        }
        do {
            let entries = try store.audit(environment: environment, limit: limit)
            return .json(["entries": .array(entries.map(\.json))])
        } catch {
            throw HTTPError(.storageUnavailable, "the flag store is unavailable")
        }
    }

    /// The header through which the console's session middleware names who is calling
    /// (`console`); it removes the header from every request it does not pass on for a session.
    static let actorHeader = "x-courier-actor"

    /// Who the audit says made an edit: `console` when a console session stood in for the admin
    /// token, `admin-api` when the token came with the request (the CLI, scripts).
    static func actor(of request: HTTPRequest) -> String {
        request.header(actorHeader) == "console" ? "console" : "admin-api"
    }

    /// Makes a change from the environment as stored, validates the environment with it applied,
    /// then stores it, in one store transaction (`FlagStore.edit`): an edit made meanwhile on
    /// another instance is either seen by `make` or waits for this one; one edit at a time on
    /// this instance (`editLock`). Returns the new version and the change.
    func change(
        environment: String, making make: (StoredEnvironment) throws(HTTPError) -> FlagChange
    ) throws(HTTPError) -> (version: Int64, change: FlagChange) {
        let result = editLock.withLock { _ -> Result<(version: Int64, change: FlagChange), HTTPError> in
            var made: FlagChange?
            do {
                let edited = try store.edit(environment, atMilliseconds: clock.nowMilliseconds) { stored in
                    let change = try make(stored)
                    made = change
                    var candidate = stored
                    switch change.subject {
                    case .flag: candidate.flags = Self.replacing(stored.flags, key: change.key, with: change.definition)
                    case .segment:
                        candidate.segments = Self.replacing(stored.segments, key: change.key, with: change.definition)
                    }
                    _ = try Self.document(environment: environment, candidate)
                    return change
                }
                served.forget(environment)
                changes.publish(environment)
                return .success(edited)
            } catch let error as HTTPError {
                return .failure(error)
            } catch let error as FlagDefinitionError {
                return .failure(HTTPError(.invalidDefinition, made.map { Self.locate(error, $0) } ?? "\(error)"))
            } catch let error as PostgresError where error.isLockTimeout || error.isRetryable {
                return .failure(
                    HTTPError(
                        .unavailable,
                        "another edit of environment \(environment) held it too long; nothing was stored: retry",
                        headers: [("Retry-After", "1")]))
            } catch {
                return .failure(HTTPError(.storageUnavailable, "the flag store is unavailable"))
            }
        }
        return try result.get()
    }

    static func replacing(_ items: [JSONValue], key: String, with definition: JSONValue) -> [JSONValue] {
        items.filter { $0["key"]?.stringValue != key } + [definition]
    }

    /// Points the error at the changed definition when it is the one at fault.
    static func locate(_ error: FlagDefinitionError, _ change: FlagChange) -> String {
        let prefix = change.subject == .flag ? "flags[" : "segments["
        guard error.path.hasPrefix(prefix), let close = error.path.firstIndex(of: "]") else {
            return error.description
        }
        let rest = error.path[error.path.index(after: close)...].drop { $0 == "." }
        return rest.isEmpty ? error.message : "\(rest): \(error.message)"
    }

    /// The body's definition, its `key` filled in from the path (or checked against it).
    func keyedDefinition(_ request: HTTPRequest, key: String) throws(HTTPError) -> JSONValue {
        var definition = try definitionBody(request)
        if definition["key"] == nil, case .object(var object) = definition {
            object["key"] = .string(key)
            definition = .object(object)
        }
        guard definition["key"]?.stringValue == key else {
            throw HTTPError(.invalidDefinition, "key: must be \(key), the key in the path")
        }
        return definition
    }

    func definitionBody(_ request: HTTPRequest) throws(HTTPError) -> JSONValue {
        guard request.body.count <= configuration.maximumDefinitionBytes else {
            throw HTTPError(.invalidRequest, "the body is over \(configuration.maximumDefinitionBytes) bytes")
        }
        do {
            let json = try JSONParser.parse(request.body)
            guard case .object = json else { throw HTTPError(.invalidDefinition, "must be an object") }
            return json
        } catch let error as HTTPError {
            throw error
        } catch {
            throw HTTPError(.invalidRequest, "invalid JSON: \(error)")
        }
    }

    func pathKey(_ request: HTTPRequest, _ name: String) throws(HTTPError) -> String {
        let key = request.pathParameters[name] ?? ""
        guard Self.isKey(key) else {
            throw HTTPError(
                .invalidRequest, "\(name) must be 1–128 characters of letters, digits, '.', '_' or '-'")
        }
        return key
    }
}
