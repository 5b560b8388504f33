import CourierCommandLine
import CourierCore
import Foundation

/// `courier flags list|set|kill|eval|audit`: the flag admin and evaluation routes.
struct FlagsCommand {
    let client: AdminClient
    let environment: String

    func run(_ arguments: Invocation) async throws {
        let base = "/v1/flags/\(AdminClient.escape(environment))"
        let flagKey = arguments.argument("FLAG") ?? ""
        switch arguments.path.last {
        case "list":
            let query = arguments.flag("--expired") ? "?expired=true" : ""
            let answer = try await client.admin("GET", base + "/definitions" + query)
            for flag in answer["flags"]?.arrayValue ?? [] {
                let key = flag["key"]?.stringValue ?? "?"
                let state = flag["enabled"]?.boolValue == false ? "killed" : "on"
                let owner = flag["owner"]?.stringValue ?? "-"
                let expires = flag["expires"]?.stringValue ?? "-"
                print("\(key)\t\(flag["type"]?.stringValue ?? "?")\t\(state)\towner=\(owner)\texpires=\(expires)")
            }
        case "set":
            let definition = try Self.definition(flagKey, arguments)
            let answer = try await client.admin(
                "PUT", "\(base)/definitions/\(AdminClient.escape(flagKey))", body: definition)
            print(JSONWriter.string(answer))
        case "kill":
            print(
                JSONWriter.string(
                    try await client.admin("POST", "\(base)/definitions/\(AdminClient.escape(flagKey))/kill")))
        case "eval":
            var attributes: [String: JSONValue] = [:]
            for pair in arguments.values("--context") + arguments.arguments("KEY=VALUE") {
                guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                    throw CommandError("--context takes KEY=VALUE, got \(pair)")
                }
                let raw = String(pair[pair.index(after: equals)...])
                attributes[String(pair[..<equals])] = (try? JSONParser.parse(raw)) ?? .string(raw)
            }
            var context: [String: JSONValue] = ["attributes": .object(attributes)]
            if let key = arguments.value("--targeting-key") { context["targetingKey"] = .string(key) }
            let answer = try await client.post(
                "\(base)/evaluate", body: ["context": .object(context), "flags": [.string(flagKey)]])
            print(JSONWriter.string(answer["flags"]?[flagKey] ?? .null))
        case "audit":
            let answer = try await client.admin("GET", base + "/audit")
            for entry in answer["entries"]?.arrayValue ?? [] { print(JSONWriter.string(entry)) }
        default:
            throw CommandError("\(arguments.commandName) has no action")
        }
    }

    /// The definition from `--file`/`--definition`, with `--type`, `--value`, `--owner` and
    /// `--expires` laid over it.
    static func definition(_ key: String, _ arguments: Invocation) throws -> JSONValue {
        var object: [String: JSONValue] = [:]
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
