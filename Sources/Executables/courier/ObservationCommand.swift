import CourierCommandLine
import CourierCore

/// The read-only admin views the console shows, for the terminal: `courier sources list`,
/// `sources volume|rejections KEY`, `settings history KEY`, `messenger devices`. Each reads the
/// same route the console calls and prints a table, or the server's JSON with `--json`.
struct ObservationCommand {
    let client: AdminClient

    /// The admin path for an invocation of one of the views, or `nil` for any other command.
    static func path(_ invocation: Invocation) -> String? {
        let key = AdminClient.escape(invocation.argument("WRITE_KEY") ?? "")
        return switch invocation.commandName {
        case "sources list": "/v1/projects"
        case "sources volume": "/v1/projects/\(key)/volume"
        case "sources rejections": "/v1/projects/\(key)/rejections"
        case "settings history": "/v1/projects/\(key)/settings/history"
        case "messenger devices": "/v1/messenger/devices"
        default: nil
        }
    }

    /// Prints the view of `command` (its name, such as `sources list`) as a table, or as JSON.
    func run(_ command: String, path: String, json: Bool) async throws {
        let answer = try await client.admin("GET", path)
        print(json ? JSONWriter.string(answer) : Self.table(command, answer), terminator: json ? "\n" : "")
    }

    /// The table of one view's answer.
    static func table(_ command: String, _ answer: JSONValue) -> String {
        switch command {
        case "sources list": projects(answer)
        case "sources volume": volume(answer)
        case "sources rejections": rejections(answer)
        case "settings history": history(answer)
        default: devices(answer)
        }
    }

    static func projects(_ answer: JSONValue) -> String {
        var table = TextTable("WRITE KEY", "COLLECTING", "SAMPLE %", "STORED BYTES", "LAST MINUTE", "LAST HOUR")
        for project in answer["projects"]?.arrayValue ?? [] {
            let settings = project["settings"]
            let perMinute = (project["perMinute"]?.arrayValue ?? []).compactMap(\.intValue)
            table.append(
                TextTable.cell(project["writeKey"]), settings?["enabled"]?.boolValue == false ? "no (killed)" : "yes",
                TextTable.cell(settings?["sampleRate"]), TextTable.cell(project["storedBytes"]),
                String(perMinute.last ?? 0), String(perMinute.reduce(0, +)))
        }
        return table.rendered
    }

    static func volume(_ answer: JSONValue) -> String {
        let perMinute = answer["perMinute"]?.objectValue ?? [:]
        let perHour = answer["perHour"]?.objectValue ?? [:]
        var table = TextTable("TYPE", "LAST MINUTE", "LAST HOUR", "LAST DAY")
        for type in Set(perMinute.keys).union(perHour.keys).sorted() {
            let minutes = (perMinute[type]?.arrayValue ?? []).compactMap(\.intValue)
            let hours = (perHour[type]?.arrayValue ?? []).compactMap(\.intValue)
            table.append(
                type, String(minutes.last ?? 0), String(minutes.reduce(0, +)), String(hours.reduce(0, +)))
        }
        return table.rendered
    }

    static func rejections(_ answer: JSONValue) -> String {
        var counts = TextTable("CODE", "REFUSED")
        for (code, count) in (answer["counts"]?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
            counts.append(code, TextTable.cell(count))
        }
        var recent = TextTable("AT", "CODE", "COUNT", "MESSAGE")
        for entry in answer["recent"]?.arrayValue ?? [] {
            recent.append(
                TextTable.cell(entry["at"]), TextTable.cell(entry["code"]), TextTable.cell(entry["count"]),
                TextTable.cell(entry["message"]))
        }
        return counts.rendered + "\n" + recent.rendered
    }

    static func history(_ answer: JSONValue) -> String {
        var table = TextTable("AT", "CHANGES")
        for entry in answer["entries"]?.arrayValue ?? [] {
            table.append(TextTable.cell(entry["at"]), changes(from: entry["before"], to: entry["after"]))
        }
        return table.rendered
    }

    /// `key old → new, …` for the top-level members that differ, or `-` when none does.
    static func changes(from before: JSONValue?, to after: JSONValue?) -> String {
        let before = before?.objectValue ?? [:]
        let after = after?.objectValue ?? [:]
        let changes = Set(before.keys).union(after.keys).sorted().compactMap { key -> String? in
            before[key] == after[key] ? nil : "\(key) \(TextTable.cell(before[key])) → \(TextTable.cell(after[key]))"
        }
        return changes.isEmpty ? "-" : changes.joined(separator: ", ")
    }

    static func devices(_ answer: JSONValue) -> String {
        var table = TextTable("ACCOUNT", "DEVICE", "NAME", "ONLINE", "MAILBOX", "OLDEST (S)", "PUSH")
        for device in answer["devices"]?.arrayValue ?? [] {
            table.append(
                TextTable.cell(device["accountId"]), TextTable.cell(device["deviceId"]), TextTable.cell(device["name"]),
                TextTable.cell(device["online"]), TextTable.cell(device["mailboxDepth"]),
                TextTable.cell(device["oldestEnvelopeAgeSeconds"]), TextTable.cell(device["push"]))
        }
        let pushes = answer["pushes"]
        let more = answer["truncated"]?.boolValue == true ? " (the first 1000 devices)" : ""
        return table.rendered
            + "live sockets \(TextTable.cell(answer["liveSockets"])), pushes sent \(TextTable.cell(pushes?["sent"])),"
            + " coalesced \(TextTable.cell(pushes?["coalesced"])), failed \(TextTable.cell(pushes?["failed"]))\(more)\n"
    }
}
