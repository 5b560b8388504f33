import CourierCommandLine
import CourierCore

/// The read-only admin views the console shows, for the terminal: `courier sources list`,
/// `sources volume|rejections KEY`, `settings history KEY`, `messenger devices`. Each prints the
/// server's JSON answer, from the same route the console calls.
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

    /// Prints the view's JSON.
    func run(path: String) async throws {
        print(JSONWriter.string(try await client.admin("GET", path)))
    }
}
