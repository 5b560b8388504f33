import CourierCommandLine
import CourierCore
import Foundation
import Sync

/// `courier sync add|set|delete|list`: the offline-first sync client from the command line. Each
/// data directory is one installation with its own local store; a change is written there first
/// (it survives a server that is down), then one sync cycle pushes it and pulls what other
/// installations changed. Two data directories with the same token converge through the server.
struct SyncCommand {
    /// The server (`/v1/sync/…`).
    let server: String
    /// The bearer token that names the records' owner.
    let token: String
    /// The installation's folder; the store is `sync.sqlite` in it.
    let dataDirectory: String

    func run(_ arguments: Invocation) async throws {
        try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
        var configuration = SyncConfiguration()
        configuration.defaultPolicy = .fieldMerge
        let client = try SyncClient(
            path: dataDirectory + "/sync.sqlite", configuration: configuration,
            transport: HTTPSyncTransport(baseURL: server, token: token))
        let collection = arguments.argument("COLLECTION") ?? ""
        let id = arguments.argument("ID") ?? ""
        switch arguments.path.last {
        case "add":
            let fields = try Self.fields(arguments.arguments("FIELD=VALUE"))
            let made = try await client.create(collection, fields: fields)
            print("added \(collection)/\(made) in \(dataDirectory)")
            await sync(client)
        case "set":
            guard try await client.record(collection, id: id) != nil else {
                throw CommandError(
                    "there is no \(collection)/\(id) in \(dataDirectory) (courier sync list \(collection))")
            }
            try await client.set(collection, id: id, fields: try Self.fields(arguments.arguments("FIELD=VALUE")))
            print("changed \(collection)/\(id)")
            await sync(client)
        case "delete":
            guard try await client.record(collection, id: id) != nil else {
                throw CommandError("there is no \(collection)/\(id) in \(dataDirectory)")
            }
            try await client.delete(collection, id: id)
            print("deleted \(collection)/\(id)")
            await sync(client)
        default:
            // The table is the output; what the sync did goes beside it, on standard error.
            if !arguments.flag("--offline") { await sync(client, say: Self.standardError) }
            var table = TextTable("ID", "VERSION", "STATE", "FIELDS")
            for record in try await client.records(collection) {
                table.append(
                    record.id, String(record.version), record.isPending ? "pending" : "synced",
                    JSONWriter.string(.object(record.fields)))
            }
            print(table.rendered, terminator: "")
        }
    }

    /// One cycle; a failure leaves the change in the local store and says so, without failing
    /// the command (the local write is what it was asked for).
    private func sync(_ client: SyncClient, say: (String) -> Void = { print($0) }) async {
        do {
            let report = try await client.sync(.explicit)
            var line = "synced with \(server): pushed \(report.applied + report.conflicts + report.rejected)"
            if report.conflicts > 0 { line += " (\(report.conflicts) resolved as conflicts)" }
            if report.rejected > 0 { line += " (\(report.rejected) refused, kept as dead letters)" }
            line += ", pulled \(report.pulled)"
            say(line)
        } catch {
            let waiting = (try? await client.pendingOperationCount()) ?? 0
            let noun = waiting == 1 ? "change waits" : "changes wait"
            Self.standardError(
                "courier: not synced (\(error)); \(waiting) \(noun) in \(dataDirectory) for the next sync")
        }
    }

    private static func standardError(_ line: String) { FileHandle.standardError.write(Data((line + "\n").utf8)) }

    /// `title=Groceries done=false count=3`: JSON values where they parse, text otherwise.
    static func fields(_ pairs: [String]) throws -> [String: JSONValue] {
        let fields = try KeyValueArguments.parse(pairs, form: "a field")
        guard !fields.isEmpty else { throw CommandError("give at least one FIELD=VALUE") }
        return fields
    }
}
