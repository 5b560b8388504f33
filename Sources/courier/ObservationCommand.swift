import CourierCore

/// The read-only admin views the console shows, for the terminal: `courier sources list`,
/// `sources volume|rejections KEY`, `settings history KEY`, `messenger devices`. Each prints the
/// server's JSON answer, from the same route the console calls.
struct ObservationCommand {
    let client: AdminClient

    /// The admin path for `words` (the positional arguments after the command), or `nil` when
    /// they name no view.
    static func path(_ words: [String]) -> String? {
        switch (words.first, words.dropFirst().first, words.dropFirst(2).first) {
        case ("sources", "list", nil): "/v1/projects"
        case ("sources", "volume", let key?): "/v1/projects/\(AdminClient.escape(key))/volume"
        case ("sources", "rejections", let key?): "/v1/projects/\(AdminClient.escape(key))/rejections"
        case ("settings", "history", let key?): "/v1/projects/\(AdminClient.escape(key))/settings/history"
        case ("messenger", "devices", nil): "/v1/messenger/devices"
        default: nil
        }
    }

    /// Prints the view's JSON.
    func run(path: String) async throws {
        print(JSONWriter.string(try await client.admin("GET", path)))
    }
}
