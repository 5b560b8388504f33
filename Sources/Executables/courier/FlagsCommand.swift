import CourierCommandLine
import CourierCore
import Foundation

/// `courier flags list|set|kill|revive|eval|audit|segment`: the flag admin and evaluation routes.
struct FlagsCommand {
    let client: AdminClient
    let environment: String

    func run(_ arguments: Invocation) async throws {
        let base = "/v1/flags/\(AdminClient.escape(environment))"
        let flagKey = arguments.argument("FLAG") ?? ""
        if arguments.path.dropLast().last == "segment" { return try await segment(arguments, base: base) }
        switch arguments.path.last {
        case "list":
            let query = arguments.flag("--expired") ? "?expired=true" : ""
            let answer = try await client.admin("GET", base + "/definitions" + query)
            guard !arguments.flag("--json") else { return print(JSONWriter.string(answer)) }
            var table = TextTable("FLAG", "TYPE", "STATE", "OWNER", "EXPIRES")
            for flag in answer["flags"]?.arrayValue ?? [] {
                table.append(
                    TextTable.cell(flag["key"]), TextTable.cell(flag["type"]),
                    flag["enabled"]?.boolValue == false ? "killed" : "on", TextTable.cell(flag["owner"]),
                    TextTable.cell(flag["expires"]))
            }
            print(table.rendered, terminator: "")
        case "set":
            // A whole definition replaces the stored one; without one, the options change only
            // what they name in the stored definition, at the version it was read.
            let path = "\(base)/definitions/\(AdminClient.escape(flagKey))"
            if arguments.value("--file") != nil || arguments.value("--definition") != nil {
                let definition = try Self.definition(flagKey, arguments, over: [:])
                return print(JSONWriter.string(try await client.admin("PUT", path, body: definition)))
            }
            let answer = try await editStored(flagKey, base: base) { stored in
                try Self.definition(flagKey, arguments, over: stored ?? [:])
            }
            print(JSONWriter.string(answer))
        case "revive":
            let answer = try await editStored(flagKey, base: base) { stored in
                guard var stored else {
                    throw CommandError("there is no flag \(flagKey) in environment \(environment)")
                }
                stored["enabled"] = true
                return .object(stored)
            }
            print(JSONWriter.string(answer))
        case "kill":
            print(
                JSONWriter.string(
                    try await client.admin("POST", "\(base)/definitions/\(AdminClient.escape(flagKey))/kill")))
        case "eval":
            let attributes = try KeyValueArguments.parse(
                arguments.values("--context") + arguments.arguments("KEY=VALUE"), form: "--context")
            var context: [String: JSONValue] = ["attributes": .object(attributes)]
            if let key = arguments.value("--targeting-key") { context["targetingKey"] = .string(key) }
            let answer = try await client.post(
                "\(base)/evaluate", body: ["context": .object(context), "flags": [.string(flagKey)]])
            print(JSONWriter.string(answer["flags"]?[flagKey] ?? .null))
        case "audit":
            let answer = try await client.admin("GET", base + "/audit")
            guard !arguments.flag("--json") else { return print(JSONWriter.string(answer)) }
            var table = TextTable("AT", "VERSION", "ACTOR", "ACTION", "WHAT", "CHANGES")
            for entry in answer["entries"]?.arrayValue ?? [] {
                table.append(
                    TextTable.cell(entry["at"]), TextTable.cell(entry["version"]), TextTable.cell(entry["actor"]),
                    TextTable.cell(entry["action"]),
                    "\(TextTable.cell(entry["subject"])) \(TextTable.cell(entry["key"]))",
                    ObservationCommand.changes(from: entry["before"], to: entry["after"]))
            }
            print(table.rendered, terminator: "")
        default:
            throw CommandError("\(arguments.commandName) has no action")
        }
    }

    /// `flags segment set|list`: `PUT …/segments/{key}` with the conditions given, and the
    /// segments of `GET …/definitions` as a table.
    func segment(_ arguments: Invocation, base: String) async throws {
        guard arguments.path.last == "set" else {
            let answer = try await client.admin("GET", base + "/definitions")
            guard !arguments.flag("--json") else {
                return print(JSONWriter.string(["segments": answer["segments"] ?? []]))
            }
            var table = TextTable("SEGMENT", "CONDITIONS")
            let segments = (answer["segments"]?.arrayValue ?? []).sorted {
                ($0["key"]?.stringValue ?? "") < ($1["key"]?.stringValue ?? "")
            }
            for segment in segments {
                let conditions = (segment["conditions"]?.arrayValue ?? []).map(Self.conditionText)
                table.append(TextTable.cell(segment["key"]), conditions.joined(separator: "; "))
            }
            return print(table.rendered, terminator: "")
        }
        let key = arguments.argument("SEGMENT") ?? ""
        var object: [String: JSONValue] = [:]
        if let path = arguments.value("--file") {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw CommandError("cannot read \(path)")
            }
            object = try Self.parseObject(Array(data), "the file \(path)")
        }
        if let text = arguments.value("--definition") {
            object = try Self.parseObject(Array(text.utf8), "--definition")
        }
        let conditions = try arguments.values("--condition").map(Self.condition)
        if !conditions.isEmpty { object["conditions"] = .array(conditions) }
        object["key"] = .string(key)
        let answer = try await client.admin(
            "PUT", "\(base)/segments/\(AdminClient.escape(key))", body: .object(object))
        print(JSONWriter.string(answer))
    }

    /// `"plan in pro,team"` as a condition: attribute, operator, then comma-separated values,
    /// each JSON when it parses (numbers, booleans) and text otherwise.
    static func condition(_ text: String) throws -> JSONValue {
        let words = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        guard words.count == 3 else {
            throw CommandError("--condition takes ATTRIBUTE OPERATOR VALUE[,VALUE...], got \(text)")
        }
        let values = words[2].split(separator: ",", omittingEmptySubsequences: false).map { value -> JSONValue in
            let text = String(value)
            return (try? JSONParser.parse(text)) ?? .string(text)
        }
        return [
            "attribute": .string(String(words[0])), "operator": .string(String(words[1])), "values": .array(values),
        ]
    }

    /// A condition as `flags segment list` shows it, the way `--condition` takes it.
    static func conditionText(_ condition: JSONValue) -> String {
        let values = (condition["values"]?.arrayValue ?? []).map { value in
            value.stringValue ?? JSONWriter.string(value)
        }
        return "\(TextTable.cell(condition["attribute"])) \(TextTable.cell(condition["operator"])) "
            + values.joined(separator: ",")
    }

    /// Reads the stored definition of `key` (`nil` when the environment has no such flag),
    /// stores what `edit` makes of it only if the environment has not changed since
    /// (`If-Match`), and reads and edits again when it has (412): five attempts in all.
    /// - Returns: the server's answer to the `PUT`.
    func editStored(
        _ key: String, base: String, _ edit: ([String: JSONValue]?) throws -> JSONValue
    ) async throws -> JSONValue {
        var attempt = 1
        while true {
            do {
                return try await putOnce(key, base: base, edit)
            } catch let error as CommandError where error.status == 412 {
                guard attempt < Self.editAttempts else {
                    throw CommandError(
                        "environment \(environment) kept changing while \(key) was edited; gave up after \(attempt) attempts",
                        status: 412)
                }
                attempt += 1
            }
        }
    }

    /// Read, edit and store attempts of `editStored`.
    static let editAttempts = 5

    private func putOnce(_ key: String, base: String, _ edit: ([String: JSONValue]?) throws -> JSONValue)
        async throws -> JSONValue
    {
        let (stored, version) = try await current(key, base: base)
        return try await client.admin(
            "PUT", "\(base)/definitions/\(AdminClient.escape(key))", body: try edit(stored),
            headers: ["If-Match": "\"\(version)\""])
    }

    /// The stored definition of `key` (`nil` when the environment has no such flag) and the
    /// environment's version (0 when it has no flags at all).
    func current(_ key: String, base: String) async throws -> (definition: [String: JSONValue]?, version: Int64) {
        let answer: JSONValue
        do {
            answer = try await client.admin("GET", base + "/definitions")
        } catch let error as CommandError where error.status == 404 {
            return (nil, 0)
        }
        let definition = answer["flags"]?.arrayValue?.first { $0["key"]?.stringValue == key }?.objectValue
        return (definition, answer["version"]?.intValue ?? 0)
    }

    /// The definition from `--file`/`--definition`, else `stored`, with `--type`, `--value`,
    /// `--owner` and `--expires` laid over it.
    static func definition(
        _ key: String, _ arguments: Invocation, over stored: [String: JSONValue] = [:]
    ) throws -> JSONValue {
        var object = stored
        if let path = arguments.value("--file") {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw CommandError("cannot read \(path)")
            }
            object = try parseObject(Array(data), "the file \(path)")
        }
        if let text = arguments.value("--definition") { object = try parseObject(Array(text.utf8), "--definition") }
        object["key"] = .string(key)
        if let type = arguments.value("--type") { object["type"] = .string(type) }
        if let value = arguments.value("--value") {
            object["value"] = (try? JSONParser.parse(value)) ?? .string(value)
        }
        if let owner = arguments.value("--owner") { object["owner"] = .string(owner) }
        if let expires = arguments.value("--expires") { object["expires"] = .string(expires) }
        return .object(object)
    }

    static func parseObject(_ bytes: [UInt8], _ source: String) throws -> [String: JSONValue] {
        guard let object = (try? JSONParser.parse(bytes))?.objectValue else {
            throw CommandError("\(source) must hold a JSON object")
        }
        return object
    }
}
