import CourierCore

/// `KEY=VALUE` words (`--prop`, `--context`, sync fields): the value is JSON where it parses
/// (numbers, booleans, null, arrays, objects) and text otherwise.
enum KeyValueArguments {
    /// - Parameter form: how the words were given, for the error (`--prop`, `fields`).
    /// - Throws: `CommandError` for a word without `=` or with an empty key.
    static func parse(_ pairs: [String], form: String) throws -> [String: JSONValue] {
        var values: [String: JSONValue] = [:]
        for pair in pairs {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw CommandError("\(form) takes KEY=VALUE, got \(pair)")
            }
            let text = String(pair[pair.index(after: equals)...])
            values[String(pair[..<equals])] = (try? JSONParser.parse(text)) ?? .string(text)
        }
        return values
    }
}
