import CourierCore

/// Small readers shared by the definition parsers; each throws a `FlagDefinitionError` at its path.
enum DefinitionReader {
    static let maximumKeyLength = 128

    static func join(_ path: String, _ member: String) -> String { path.isEmpty ? member : "\(path).\(member)" }

    static func object(_ json: JSONValue, _ path: String) throws(FlagDefinitionError) -> [String: JSONValue] {
        guard case .object(let object) = json else { throw FlagDefinitionError(path: path, "must be an object") }
        return object
    }

    static func array(_ json: JSONValue?, _ path: String) throws(FlagDefinitionError) -> [JSONValue] {
        switch json {
        case nil, .null?: return []
        case .array(let items)?: return items
        default: throw FlagDefinitionError(path: path, "must be an array")
        }
    }

    static func optionalString(_ json: JSONValue?, _ path: String) throws(FlagDefinitionError) -> String? {
        switch json {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw FlagDefinitionError(path: path, "must be a string")
        }
    }

    /// A key: 1–128 characters from `A–Z a–z 0–9 . _ -`.
    static func key(_ json: JSONValue?, _ path: String) throws(FlagDefinitionError) -> String {
        guard let text = json?.stringValue, isKey(text) else {
            throw FlagDefinitionError(
                path: path, "must be 1–\(maximumKeyLength) characters of letters, digits, '.', '_' or '-'")
        }
        return text
    }

    static func isKey(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= maximumKeyLength
            && text.utf8.allSatisfy { c in
                (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c == 46 || c == 95 || c == 45
            }
    }

    static func isDay(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == 45, bytes[7] == 45 else { return false }
        let digits = bytes.enumerated().allSatisfy { index, c in index == 4 || index == 7 || (c >= 48 && c <= 57) }
        guard digits, let month = Int(text.dropFirst(5).prefix(2)), let day = Int(text.suffix(2)) else { return false }
        return (1...12).contains(month) && (1...31).contains(day)
    }

    static func refuseUnknown(_ object: [String: JSONValue], known: Set<String>, _ path: String)
        throws(FlagDefinitionError)
    {
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw FlagDefinitionError(path: join(path, unknown), "is not a known member")
        }
    }

    static func conditions(_ json: JSONValue?, _ path: String) throws(FlagDefinitionError) -> [Condition] {
        var conditions: [Condition] = []
        for (index, item) in (try array(json, path)).enumerated() {
            let itemPath = "\(path)[\(index)]"
            let object = try object(item, itemPath)
            guard let attribute = object["attribute"]?.stringValue, !attribute.isEmpty else {
                throw FlagDefinitionError(path: join(itemPath, "attribute"), "must be a non-empty string")
            }
            guard let name = object["operator"]?.stringValue, let op = Condition.Operator(rawValue: name) else {
                throw FlagDefinitionError(
                    path: join(itemPath, "operator"),
                    "must be one of \(Condition.Operator.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            var values = try array(object["values"], join(itemPath, "values"))
            if values.isEmpty, let single = object["value"] { values = [single] }
            guard !values.isEmpty else {
                throw FlagDefinitionError(path: join(itemPath, "values"), "needs at least one value")
            }
            conditions.append(try Condition(attribute: attribute, op: op, values: values, path: itemPath))
        }
        return conditions
    }
}
