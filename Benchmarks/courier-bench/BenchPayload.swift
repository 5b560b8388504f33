/// The request every collector benchmark sends: a Segment batch of 100 track events of about
/// 230 bytes each, with unique `messageId`s per request so nothing is deduplicated.
enum BenchPayload {
    static let eventsPerBatch = 100

    static func event(prefix: String, request: Int, index: Int) -> String {
        "{\"type\":\"track\",\"event\":\"Order Completed\",\"userId\":\"user-\(index)\","
            + "\"messageId\":\"\(prefix)-\(request)-\(index)\",\"timestamp\":\"2026-11-29T08:00:00.000Z\","
            + "\"properties\":{\"orderId\":\"o-\(request)\",\"revenue\":19.99,\"currency\":\"EUR\",\"items\":3,\"coupon\":null}}"
    }

    static func batchBody(prefix: String, request: Int) -> [UInt8] {
        let events = (0..<eventsPerBatch).map { event(prefix: prefix, request: request, index: $0) }
        return Array(
            ("{\"batch\":[" + events.joined(separator: ",")
                + "],\"sentAt\":\"2026-11-29T08:00:01.000Z\",\"context\":{\"library\":{\"name\":\"courier-bench\",\"version\":\"1\"}}}")
                .utf8)
    }

    /// The same body built by wrk's Lua for every request, with a per-thread, per-request prefix.
    static let wrkScript = """
        local counter = 0
        function setup(thread)
            counter = counter + 1
            thread:set("tid", counter)
        end
        function init(args)
            path = args[1] or "/v1/batch"
            n = 0
            prefix = "t" .. tostring(tid) .. "-" .. tostring(os.time()) .. "-" .. tostring(math.random(1, 1000000000))
        end
        function request()
            n = n + 1
            local parts = {}
            for i = 0, \(eventsPerBatch - 1) do
                parts[#parts + 1] = '{"type":"track","event":"Order Completed","userId":"user-' .. i ..
                    '","messageId":"' .. prefix .. '-' .. n .. '-' .. i ..
                    '","timestamp":"2026-11-29T08:00:00.000Z","properties":{"orderId":"o-' .. n ..
                    '","revenue":19.99,"currency":"EUR","items":3,"coupon":null}}'
            end
            local body = '{"batch":[' .. table.concat(parts, ",") ..
                '],"sentAt":"2026-11-29T08:00:01.000Z","context":{"library":{"name":"courier-bench","version":"1"}}}'
            return wrk.format("POST", path, {["Content-Type"] = "application/json",
                ["Authorization"] = "Basic YmVuY2g6"}, body)
        end
        """
}
