import CourierCore
import CourierHTTP
import Foundation

/// The `courier` command line: talks to a running `courier-server` over HTTP.
enum CourierCommand {
    static let usage = """
        USAGE: courier <command> [options]

        COMMANDS:
          track NAME [--prop KEY=VALUE …]        send an event through the Analytics SDK
              --write-key KEY                      default $COURIER_WRITE_KEY or dev-write-key
              --user-id ID                         identify first
              --count N                            send N events (each gets a "seq" property)
              --data-dir PATH                      the SDK's queue folder
              --progress N                         print progress every N events
              --drain-seconds S                    how long to wait for the upload (default 10)
          settings get WRITE_KEY                 print a project's settings
          settings set WRITE_KEY [changes]       change them (creates the project if new):
              --enabled true|false                 the kill switch
              --sample-rate PERCENT                0–100
              --flush-at N                         events per upload
              --flush-interval SECONDS             seconds between uploads
              --allow-list KEY,KEY… | --allow-all  property allow-list
          settings history WRITE_KEY             print the settings changes, newest first
          sources list                           print every write key with events per minute
          sources volume WRITE_KEY               print events per minute and hour by type
          sources rejections WRITE_KEY           print refusal counts and the last reasons
          messenger devices                      print devices, mailbox depth and age, pushes
          events tail --write-key KEY            print stored events, one JSON line each
              --follow                             keep printing new events
              --after CURSOR                       start after this cursor (default: the start)
              --interval SECONDS                   poll interval with --follow (default 1)

          flags list [--expired]                 list the environment's flags (or the overdue ones)
          flags set FLAG [changes]               create or change a flag (validated by the server):
              --file PATH | --definition JSON      the whole definition (docs/feature-flags.md)
              --type bool|string|int|double|json   with --value, for a flag without rules
              --value JSON                         the value served when no rule matches
              --owner NAME  --expires YYYY-MM-DD   hygiene
          flags kill FLAG                        turn the kill switch on
          flags eval FLAG [--context KEY=VALUE …] evaluate on the server, print the details
              --targeting-key ID                   the id rollouts stick to
          flags audit                            print the changes, newest first
          (flags commands take --env ENV, default $COURIER_FLAGS_ENV or development)

          chat register --server URL --name NAME a new messenger account and its first device
          chat provision --name NAME             a linking token, and the identity key in a 0600
              --identity FILE                      file to copy to the new device (default
                                                   <dir>-identity.handover)
          chat link --server URL --name NAME     link this device: --token T --identity FILE
          chat [run] --name NAME                 the interactive client (/help lists its commands)
              --dir PATH                           the device's state (default .courier/chat/NAME)
          demo messenger                         Alice (phone, tablet) and Bob, scripted, against a
                                                   server started on 127.0.0.1 (or --server URL)

        COMMON OPTIONS:
          --server URL          the server (default $COURIER_SERVER or http://127.0.0.1:8080)
          --admin-token TOKEN   admin API token (default $COURIER_ADMIN_TOKEN)
        """

    static func run(_ arguments: [String]) async -> Int32 {
        var parsed = ParsedArguments(arguments)
        let environment = ProcessInfo.processInfo.environment
        let server = parsed.option("--server") ?? environment["COURIER_SERVER"] ?? "http://127.0.0.1:8080"
        let token = parsed.option("--admin-token") ?? environment["COURIER_ADMIN_TOKEN"]
        let client = AdminClient(server: server, token: token)
        do {
            switch (parsed.positional.first, parsed.positional.dropFirst().first) {
            case ("track", let name?):
                let count = Int(parsed.option("--count") ?? "1") ?? 0
                guard count >= 1 else { throw CommandError("--count takes a positive whole number") }
                guard let drain = Double(parsed.option("--drain-seconds") ?? "10"), drain.isFinite, drain >= 0,
                    drain <= 3600
                else {
                    throw CommandError("--drain-seconds takes seconds from 0 to 3600")
                }
                let command = TrackCommand(
                    name: name, properties: try TrackCommand.parseProperties(parsed.props),
                    server: server,
                    writeKey: parsed.option("--write-key") ?? environment["COURIER_WRITE_KEY"] ?? "dev-write-key",
                    userId: parsed.option("--user-id"), dataDirectory: parsed.option("--data-dir"), count: count,
                    progressEvery: parsed.option("--progress").flatMap(Int.init), drainSeconds: drain)
                if let unknown = parsed.leftoverOptions.first { throw CommandError("unknown option \(unknown)") }
                return command.run()
            case ("settings", "get"):
                guard let key = parsed.positional.dropFirst(2).first else {
                    throw CommandError("settings get needs a write key")
                }
                print(JSONWriter.string(try await client.settings(writeKey: key)))
            case ("settings", "set"):
                guard let key = parsed.positional.dropFirst(2).first else {
                    throw CommandError("settings set needs a write key")
                }
                let patch = try SettingsPatch.from(&parsed)
                print(JSONWriter.string(try await client.updateSettings(writeKey: key, patch: patch)))
            case ("events", "tail"):
                guard let key = parsed.option("--write-key") else {
                    throw CommandError("events tail needs --write-key")
                }
                guard let interval = Double(parsed.option("--interval") ?? "1"), interval.isFinite,
                    (0.05...3600).contains(interval)
                else {
                    throw CommandError("--interval takes seconds from 0.05 to 3600")
                }
                try await EventsTail(
                    client: client, writeKey: key, after: parsed.option("--after") ?? "0",
                    follow: parsed.flag("--follow"), interval: interval
                ).run()
            case ("sources", _), ("settings", "history"), ("messenger", _):
                guard let path = ObservationCommand.path(parsed.positional) else {
                    throw CommandError("unknown command \(parsed.positional.joined(separator: " "))\n\n\(usage)")
                }
                try await ObservationCommand(client: client).run(path: path)
            case ("flags", let action?):
                let environment = parsed.option("--env") ?? environment["COURIER_FLAGS_ENV"] ?? "development"
                try await FlagsCommand(client: client, environment: environment).run(action, &parsed)
            case ("chat", let action):
                try await runChat(action ?? "run", &parsed)
            case ("demo", "messenger"):
                try await MessengerDemo(server: parsed.option("--server")).run()
            case ("help", _), ("--help", _), ("-h", _), (nil, _):
                print(usage)
            default:
                throw CommandError("unknown command \(parsed.positional.joined(separator: " "))\n\n\(usage)")
            }
            if let unknown = parsed.leftoverOptions.first { throw CommandError("unknown option \(unknown)") }
            return 0
        } catch {
            FileHandle.standardError.write(Data("courier: \(error)\n".utf8))
            return 1
        }
    }
}

extension CourierCommand {
    /// `courier chat register|provision|link|run`.
    static func runChat(_ action: String, _ parsed: inout ParsedArguments) async throws {
        guard let name = parsed.option("--name") else { throw CommandError("chat needs --name NAME") }
        let chat = ChatCommand(name: name, directory: parsed.option("--dir"))
        switch action {
        case "register":
            guard let server = parsed.option("--server") else { throw CommandError("chat register needs --server") }
            try await chat.register(server: server)
        case "provision":
            try await chat.provision(identityFile: parsed.option("--identity"))
        case "link":
            guard let server = parsed.option("--server"), let token = parsed.option("--token"),
                let identity = parsed.option("--identity")
            else { throw CommandError("chat link needs --server, --token and --identity") }
            try await chat.link(server: server, token: token, identityFile: identity)
        case "run":
            try await chat.run()
        default:
            throw CommandError("unknown chat command \(action)")
        }
    }
}

/// A usage or server error, printed as one line.
struct CommandError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
