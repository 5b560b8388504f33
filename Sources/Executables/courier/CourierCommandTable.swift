import CourierCommandLine

/// Every command of `courier`, its arguments and options: the one table the command line is read
/// against before anything runs.
extension CourierCommand {
    static let server = Option.value(
        "--server", "URL", help: "the server (default $COURIER_SERVER or http://127.0.0.1:8080)")
    static let adminToken = Option.value(
        "--admin-token", "TOKEN", help: "admin API token (default $COURIER_ADMIN_TOKEN)")
    /// What every command that calls the admin API takes.
    static let common = [server, adminToken]
    /// The admin views: a table by default, the server's answer with `--json`.
    static let view = [Option.flag("--json", help: "print the server's JSON instead of a table")] + common
    static let writeKey = Argument.required("WRITE_KEY", help: "the source's write key")

    static let table = Command(
        "courier", summary: "Talks to a running courier-server.",
        subcommands: [
            Command(
                "track", summary: "send events through the Analytics SDK",
                arguments: [.required("NAME", help: "the event's name")],
                options: [
                    .repeated("--prop", "KEY=VALUE", help: "a property (JSON values are parsed)"),
                    .value("--write-key", "KEY", help: "default $COURIER_WRITE_KEY or dev-write-key"),
                    .value("--user-id", "ID", help: "identify first"),
                    .value(
                        "--count", "N",
                        help: "send N events (each gets a \"seq\" property; uploaded up to 10,000 at a time)"),
                    .value(
                        "--data-dir", "PATH",
                        help:
                            "the SDK's queue folder (default $XDG_DATA_HOME/courier/analytics or ~/.local/share/courier/analytics)"
                    ),
                    .value("--progress", "N", help: "print progress every N events"),
                    .value("--drain-seconds", "S", help: "how long to wait for the upload (default 10)"),
                    server,
                ]),
            Command(
                "settings", summary: "a project's settings",
                subcommands: [
                    Command("get", summary: "print a project's settings", arguments: [writeKey], options: common),
                    Command(
                        "set", summary: "change them (creates the project if new)", arguments: [writeKey],
                        options: [
                            .value("--enabled", "true|false", help: "the kill switch"),
                            .value("--sample-rate", "PERCENT", help: "0–100"),
                            .value("--flush-at", "N", help: "events per upload"),
                            .value("--flush-interval", "SECONDS", help: "seconds between uploads"),
                            .value("--allow-list", "KEY,KEY…", help: "property allow-list"),
                            .flag("--allow-all", help: "no property allow-list"),
                        ] + common),
                    Command(
                        "history", summary: "print the settings changes, newest first", arguments: [writeKey],
                        options: view),
                ]),
            Command(
                "sources", summary: "the sources sending events",
                subcommands: [
                    Command("list", summary: "print every write key with events per minute", options: view),
                    Command(
                        "volume", summary: "print events per minute and hour by type", arguments: [writeKey],
                        options: view),
                    Command(
                        "rejections", summary: "print refusal counts and the last reasons", arguments: [writeKey],
                        options: view),
                ]),
            Command(
                "messenger", summary: "the messenger server",
                subcommands: [
                    Command("devices", summary: "print devices, mailbox depth and age, pushes", options: view)
                ]),
            Command(
                "events", summary: "stored events",
                subcommands: [
                    Command(
                        "tail", summary: "print stored events, one JSON line each",
                        options: [
                            .value("--write-key", "KEY", required: true, help: "the source's write key"),
                            .flag("--follow", help: "keep printing new events"),
                            .value("--after", "CURSOR", help: "start after this cursor (default: the start)"),
                            .value("--interval", "SECONDS", help: "poll interval with --follow (default 1)"),
                        ] + common)
                ]),
            flags,
            chat,
            sync,
            Command(
                "images", summary: "the image pipeline (docs/image-pipeline.md)",
                subcommands: [
                    Command(
                        "thumbnail", summary: "fit an image in a square box and write it as JPEG",
                        arguments: [.required("SOURCE", help: "an http(s) URL or an image file")],
                        options: [
                            .value("--px", "N", help: "the box's side in pixels (default 300)"),
                            .value("--out", "PATH", help: "where to write it (default NAME-N.jpg here)"),
                            .value(
                                "--data-dir", "PATH",
                                help: "keeps the disk cache in PATH/images (default $XDG_DATA_HOME/courier/images)"),
                        ])
                ]),
            Command(
                "demo", summary: "scripted demonstrations",
                subcommands: [
                    Command(
                        "messenger",
                        summary: "Alice (phone, tablet) and Bob, scripted, against a server started on 127.0.0.1",
                        options: [.value("--server", "URL", help: "use this running server instead")])
                ]),
        ])

    static let environment = Option.value(
        "--env", "ENV", help: "the environment (default $COURIER_FLAGS_ENV or development)")
    static let flagKey = Argument.required("FLAG", help: "the flag's key")

    static let flags = Command(
        "flags", summary: "feature flags (docs/feature-flags.md)",
        subcommands: [
            Command(
                "list", summary: "list the environment's flags",
                options: [.flag("--expired", help: "only the overdue ones"), environment] + view),
            Command(
                "set", summary: "create a flag, or change only the fields given (validated by the server)",
                arguments: [flagKey],
                options: [
                    .value("--file", "PATH", help: "the whole definition, from a file (replaces the stored one)"),
                    .value("--definition", "JSON", help: "the whole definition (replaces the stored one)"),
                    .value("--type", "bool|string|int|double|json", help: "with --value, for a flag without rules"),
                    .value("--value", "JSON", help: "the value served when no rule matches"),
                    .value("--owner", "NAME", help: "who owns the flag"),
                    .value("--expires", "YYYY-MM-DD", help: "when it is overdue"),
                    environment,
                ] + common),
            Command("kill", summary: "turn the kill switch on", arguments: [flagKey], options: [environment] + common),
            Command(
                "revive", summary: "turn the kill switch off again", arguments: [flagKey],
                options: [environment] + common),
            Command(
                "eval", summary: "evaluate on the server, print the details",
                arguments: [flagKey, .variadic("KEY=VALUE", help: "context attributes, as with --context")],
                options: [
                    .repeated("--context", "KEY=VALUE", help: "a context attribute"),
                    .value("--targeting-key", "ID", help: "the id rollouts stick to"),
                    environment,
                ] + common),
            Command("audit", summary: "print the changes, newest first", options: [environment] + view),
            Command(
                "segment", summary: "the segments rules name (all their conditions must hold)",
                subcommands: [
                    Command(
                        "set", summary: "create a segment or replace its conditions",
                        arguments: [.required("SEGMENT", help: "the segment's key")],
                        options: [
                            .repeated(
                                "--condition", "ATTRIBUTE OPERATOR VALUE[,VALUE...]",
                                help: "one condition, e.g. \"plan in pro,team\" (operators: docs/feature-flags.md)"),
                            .value("--file", "PATH", help: "the whole segment, from a file"),
                            .value("--definition", "JSON", help: "the whole segment"),
                            environment,
                        ] + common),
                    Command("list", summary: "list the environment's segments", options: [environment] + view),
                ]),
        ])

    static let collection = Argument.required("COLLECTION", help: "the record type, e.g. notes")
    static let recordID = Argument.required("ID", help: "the record's id (courier sync list shows it)")
    static let fields = Argument.variadic("FIELD=VALUE", help: "fields; JSON values are parsed")
    static let syncOptions: [Option] = [
        server,
        .value("--token", "TOKEN", help: "the sync token (default $COURIER_SYNC_TOKEN or dev-sync-token)"),
        .value(
            "--data-dir", "PATH",
            help: "this installation's local store (default $XDG_DATA_HOME/courier/sync or ~/.local/share/courier/sync)"
        ),
    ]

    static let sync = Command(
        "sync", summary: "offline-first records through the sync client (docs/sync.md)",
        subcommands: [
            Command(
                "add", summary: "create a record locally, then sync", arguments: [collection, fields],
                options: syncOptions),
            Command(
                "set", summary: "change fields of a record locally, then sync",
                arguments: [collection, recordID, fields], options: syncOptions),
            Command(
                "delete", summary: "delete a record locally, then sync", arguments: [collection, recordID],
                options: syncOptions),
            Command(
                "list", summary: "sync, then print the local records", arguments: [collection],
                options: [.flag("--offline", help: "print the local store without syncing")] + syncOptions),
        ])

    static let name = Option.value("--name", "NAME", required: true, help: "the device's name")
    static let directory = Option.value("--dir", "PATH", help: "the device's state (default .courier/chat/NAME)")

    static let chat = Command(
        "chat", summary: "a terminal messenger client (docs/messenger-cli.md)",
        subcommands: [
            Command(
                "register", summary: "a new messenger account and its first device",
                options: [.value("--server", "URL", required: true, help: "the messenger server"), name, directory]),
            Command(
                "link", summary: "make this a new device of an account: prints a code, waits for provision",
                options: [.value("--server", "URL", required: true, help: "the messenger server"), name, directory]),
            Command(
                "provision", summary: "on a device of the account: link the device showing CODE",
                arguments: [.required("CODE", help: "the courier-link:// code that `chat link` printed")],
                options: [name, directory]),
            Command("run", summary: "the interactive client (/help lists its commands)", options: [name, directory]),
        ], defaultSubcommand: "run")
}
