import CourierCommandLine
import CourierCore
import CourierHTTP
import Foundation

/// The `courier` command line: talks to a running `courier-server` over HTTP. The command line is
/// read against `table` first; help, an unknown name or a missing argument ends it there, before
/// any request, file or account is made.
enum CourierCommand {
    /// - Parameter environment: the process's environment as it started (`DataDirectory`).
    static func run(_ arguments: [String], environment: [String: String]) async -> Int32 {
        let invocation = table.parseOrExit(arguments, tool: "courier")
        do {
            return try await run(invocation, environment: environment)
        } catch {
            FileHandle.standardError.write(Data("courier: \(error)\n".utf8))
            return 1
        }
    }

    /// Runs a checked invocation; every value is converted and checked before the first request.
    static func run(_ invocation: Invocation, environment: [String: String]) async throws -> Int32 {
        let server = invocation.value("--server") ?? environment["COURIER_SERVER"] ?? "http://127.0.0.1:8080"
        let client = AdminClient(
            server: server, token: invocation.value("--admin-token") ?? environment["COURIER_ADMIN_TOKEN"])
        let writeKey = invocation.argument("WRITE_KEY") ?? ""
        switch invocation.path.first {
        case "track":
            let command = TrackCommand(
                name: invocation.argument("NAME") ?? "",
                properties: try TrackCommand.parseProperties(invocation.values("--prop")), server: server,
                writeKey: invocation.value("--write-key") ?? environment["COURIER_WRITE_KEY"] ?? "dev-write-key",
                userId: invocation.value("--user-id"),
                dataDirectory: invocation.value("--data-dir") ?? DataDirectory.analytics(environment: environment),
                count: try invocation.integer("--count", in: 1...Int.max) ?? 1,
                progressEvery: try invocation.integer("--progress", in: 1...Int.max),
                drainSeconds: try invocation.number("--drain-seconds", in: 0...3600) ?? 10)
            return await command.run()
        case "settings" where invocation.commandName == "settings get":
            print(JSONWriter.string(try await client.settings(writeKey: writeKey)))
        case "settings" where invocation.commandName == "settings set":
            let patch = try SettingsPatch.from(invocation)
            print(JSONWriter.string(try await client.updateSettings(writeKey: writeKey, patch: patch)))
        case "events":
            try await EventsTail(
                client: client, writeKey: invocation.value("--write-key") ?? "",
                after: invocation.value("--after") ?? "0", follow: invocation.flag("--follow"),
                interval: try invocation.number("--interval", in: 0.05...3600) ?? 1
            ).run()
        case "flags":
            let environment = invocation.value("--env") ?? environment["COURIER_FLAGS_ENV"] ?? "development"
            try await FlagsCommand(client: client, environment: environment).run(invocation)
        case "chat":
            try await runChat(invocation)
        case "images":
            try await ImagesCommand(
                source: invocation.argument("SOURCE") ?? "",
                pixels: try invocation.integer("--px", in: 1...8192) ?? 300,
                output: invocation.value("--out"),
                cacheDirectory: invocation.value("--data-dir").map { $0 + "/images" }
                    ?? DataDirectory.default(environment: environment) + "/images"
            ).run()
        case "demo":
            try await MessengerDemo(server: invocation.value("--server")).run()
        default:
            guard let path = ObservationCommand.path(invocation) else {
                throw CommandError("\(invocation.commandName) has no action")
            }
            try await ObservationCommand(client: client).run(
                invocation.commandName, path: path, json: invocation.flag("--json"))
        }
        return 0
    }
}

extension CourierCommand {
    /// `courier chat register|provision|link|run`; the table has checked the required options.
    static func runChat(_ invocation: Invocation) async throws {
        let chat = ChatCommand(name: invocation.value("--name") ?? "", directory: invocation.value("--dir"))
        let server = invocation.value("--server") ?? ""
        switch invocation.commandName {
        case "chat register":
            try await chat.register(server: server)
        case "chat provision":
            try await chat.provision(code: invocation.argument("CODE") ?? "")
        case "chat link":
            try await chat.link(server: server)
        default:
            try await chat.run()
        }
    }
}

/// A usage or server error, printed as one line.
struct CommandError: Error, CustomStringConvertible {
    let description: String
    /// The HTTP status when the server refused the request.
    let status: Int?
    init(_ description: String, status: Int? = nil) {
        self.description = description
        self.status = status
    }
}
