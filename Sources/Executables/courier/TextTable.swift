import CourierCore
import Foundation

/// Rows of text in aligned columns under a header, the admin commands' default output
/// (`--json` prints the server's answer instead).
struct TextTable {
    let headers: [String]
    var rows: [[String]] = []

    init(_ headers: String...) { self.headers = headers }

    mutating func append(_ cells: String...) { rows.append(cells) }

    /// The header and rows, each column as wide as its widest cell plus two spaces; the last
    /// column is not padded. A table without rows prints `(none)` under its header.
    var rendered: String {
        let lines = [headers] + rows
        var widths = headers.map(\.count)
        for row in rows {
            for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) }
        }
        var text = ""
        for line in lines {
            var cells: [String] = []
            for (i, cell) in line.enumerated() {
                let last = i == line.count - 1
                cells.append(last ? cell : cell.padding(toLength: widths[i] + 2, withPad: " ", startingAt: 0))
            }
            text += cells.joined() + "\n"
        }
        return rows.isEmpty ? text + "(none)\n" : text
    }

    /// A JSON value as a cell: strings as they are, `-` for null or missing, JSON for the rest.
    static func cell(_ value: JSONValue?) -> String {
        switch value {
        case nil, .null?: "-"
        case .string(let text)?: text
        case .bool(let flag)?: flag ? "yes" : "no"
        case let other?: JSONWriter.string(other)
        }
    }
}
