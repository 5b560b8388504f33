import AnalyticsCollector
import CSimdJSONPeer
import CourierCore
import Foundation

/// Events parsed per second from Segment batch bodies: Courier's byte parser beside Foundation's
/// `JSONSerialization` and `JSONDecoder` (into a recursive enum), and the collector's parse and
/// validation (`IncomingBatch`) beside simdjson's DOM parser walking every message's members
/// (Debian's libsimdjson 3.0.1), on the same bytes, one core.
struct JSONBenchmark {
    let runs: Int

    /// A recursive JSON enum for `JSONDecoder`, the usual way apps decode untyped JSON.
    enum AnyJSON: Decodable {
        case null, bool(Bool), number(Double), string(String), array([AnyJSON]), object([String: AnyJSON])
        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if c.decodeNil() {
                self = .null
            } else if let b = try? c.decode(Bool.self) {
                self = .bool(b)
            } else if let d = try? c.decode(Double.self) {
                self = .number(d)
            } else if let s = try? c.decode(String.self) {
                self = .string(s)
            } else if let a = try? c.decode([AnyJSON].self) {
                self = .array(a)
            } else {
                self = .object(try c.decode([String: AnyJSON].self))
            }
        }
    }

    func run() throws {
        let body = BenchPayload.batchBody(prefix: "json", request: 1)
        let data = Data(body)
        let iterations = 300
        var ours: [Double] = [], serialization: [Double] = [], decoder: [Double] = []
        var incoming: [Double] = [], simdjson: [Double] = []
        let configuration = CollectorConfiguration()
        guard simdjson_peer_walk_batch(body, body.count) > 0 else {
            throw BenchError("simdjson could not read the batch")
        }
        for _ in 0..<runs {
            ours.append(try rate(iterations) { _ = try JSONParser.parse(body) })
            incoming.append(
                try rate(iterations) {
                    _ = try IncomingBatch(body: body, singleType: nil, configuration: configuration)
                })
            simdjson.append(
                try rate(iterations * 10) {
                    guard simdjson_peer_walk_batch(body, body.count) > 0 else { throw BenchError("simdjson failed") }
                })
            serialization.append(try rate(iterations) { _ = try JSONSerialization.jsonObject(with: data) })
            decoder.append(try rate(iterations / 3) { _ = try JSONDecoder().decode(AnyJSON.self, from: data) })
        }
        print(
            "== json: Segment batches of \(BenchPayload.eventsPerBatch) events (\(body.count) bytes), median of \(runs) runs =="
        )
        print(line("JSONParser events/s", median(ours), "ev/s", median(serialization), "Foundation JSONSerialization"))
        print(line("JSONParser events/s", median(ours), "ev/s", median(decoder), "JSONDecoder → enum"))
        print(line("JSONParser events/s", median(ours), "ev/s", median(simdjson), "simdjson DOM parse + walk"))
        print(
            line(
                "IncomingBatch events/s", median(incoming), "ev/s", median(simdjson),
                "simdjson DOM parse + walk (no duplicate-key check)"))
    }

    private func rate(_ iterations: Int, _ body: () throws -> Void) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<iterations { try body() }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return Double(iterations * BenchPayload.eventsPerBatch) / seconds
    }
}
