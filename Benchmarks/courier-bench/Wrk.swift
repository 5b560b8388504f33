import Foundation
import CourierTesting

/// One load run of `wrk` (Debian's) against a server on loopback, and what it printed.
struct Wrk {
    let connections: Int
    let seconds: Int

    /// Requests per second, latency percentiles and non-2xx answers of one run.
    struct Result {
        let requestsPerSecond: Double
        let p50Milliseconds: Double
        let p99Milliseconds: Double
        let errors: Int
        let requests: Int
    }

    /// Runs wrk against `baseURL`, with a Lua `script` given `path` as its argument (or a plain
    /// GET of `path` without a script), sending `headers` (`Name: value`) on every request.
    func run(_ baseURL: String, script: String?, path: String, headers: [String] = []) throws -> Result {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/wrk") else {
            throw BenchError("wrk is not installed (apt-get install wrk, or run scripts/bootstrap)")
        }
        var arguments = ["-t2", "-c\(connections)", "-d\(seconds)s", "--latency"]
        for header in headers { arguments += ["-H", header] }
        if let script {
            arguments += ["-s", script, baseURL, "--", path]
        } else {
            arguments += [baseURL + path]
        }
        let text = try ChildProcess.run("/usr/bin/wrk", arguments).output
        guard let rps = Self.number(after: "Requests/sec:", in: text) else {
            throw BenchError("wrk output not understood:\n\(text)")
        }
        return Result(
            requestsPerSecond: rps,
            p50Milliseconds: Self.latency("50%", in: text), p99Milliseconds: Self.latency("99%", in: text),
            errors: Int(Self.number(after: "Non-2xx or 3xx responses:", in: text) ?? 0),
            requests: Int(Self.number(before: " requests in", in: text) ?? 0))
    }

    private static func number(after label: String, in text: String) -> Double? {
        guard let range = text.range(of: label) else { return nil }
        let rest = text[range.upperBound...].drop { $0 == " " }
        return Double(rest.prefix { $0.isNumber || $0 == "." })
    }

    private static func number(before label: String, in text: String) -> Double? {
        guard let range = text.range(of: label) else { return nil }
        let head = text[..<range.lowerBound]
        return Double(String(head.reversed().prefix { $0.isNumber }.reversed()))
    }

    private static func latency(_ percentile: String, in text: String) -> Double {
        // wrk prints e.g. "     50%    1.23ms" / "99%   12.50ms" / "  1.02s".
        guard let distribution = text.range(of: "Latency Distribution") else { return 0 }
        for row in text[distribution.upperBound...].split(separator: "\n") {
            let fields = row.split(separator: " ")
            guard fields.count == 2, fields[0] == percentile else { continue }
            let value = String(fields[1])
            if value.hasSuffix("us"), let v = Double(value.dropLast(2)) { return v / 1000 }
            if value.hasSuffix("ms"), let v = Double(value.dropLast(2)) { return v }
            if value.hasSuffix("s"), let v = Double(value.dropLast(1)) { return v * 1000 }
        }
        return 0
    }
}
