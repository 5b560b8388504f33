import CourierCore
import Testing

/// The admin JSON endpoints the console's page reads, called through a console session.
@Suite(.timeLimit(.minutes(1)))
struct ObservationEndpointTests {
    static func event(_ type: String, _ name: String?, id: String) -> JSONValue {
        var object: [String: JSONValue] = ["type": .string(type), "userId": "u1", "messageId": .string(id)]
        if let name { object["event"] = .string(name) }
        return .object(object)
    }

    @Test func projectsListEachWriteKeyWithItsSettingsAndEventsPerMinute() async throws {
        let harness = try ConsoleHarness(listening: false)
        defer { harness.stop() }
        let session = try await harness.signIn()
        _ = try await harness.track((0..<3).map { Self.event("track", "Opened", id: "p\($0)") })
        let answer = try await harness.request("GET", "/v1/projects", headers: session.readHeaders)
        #expect(answer.status == 200)
        let project = try #require(answer.json?["projects"]?.arrayValue?.first)
        #expect(project["writeKey"]?.stringValue == ConsoleHarness.writeKey)
        #expect(project["settings"]?["enabled"]?.boolValue == true)
        let perMinute = try #require(project["perMinute"]?.arrayValue)
        #expect(perMinute.count == 60)
        #expect(perMinute.last?.intValue == 3)
        // 2026-11-29T08:00:00Z is the harness clock's now: the last minute starts then.
        let firstMinute: Int64 = 1_795_939_200_000 - 59 * 60_000
        #expect(project["firstMinute"]?.intValue == firstMinute)
    }

    @Test func volumeIsCountedByTypePerMinuteAndPerHour() async throws {
        let harness = try ConsoleHarness(listening: false)
        defer { harness.stop() }
        let session = try await harness.signIn()
        _ = try await harness.track([Self.event("track", "A", id: "v1"), Self.event("identify", nil, id: "v2")])
        harness.clock.advance(by: .seconds(120))
        _ = try await harness.track([Self.event("track", "B", id: "v3")])
        let answer = try await harness.request(
            "GET", "/v1/projects/\(ConsoleHarness.writeKey)/volume", headers: session.readHeaders)
        #expect(answer.status == 200)
        let trackValues = try #require(answer.json?["perMinute"]?["track"]?.arrayValue)
        let tracks = trackValues.compactMap(\.intValue)
        #expect(tracks.count == 60)
        #expect(tracks[59] == 1)
        #expect(tracks[57] == 1)
        #expect(tracks.reduce(0, +) == 2)
        #expect(answer.json?["perMinute"]?["identify"]?.arrayValue?[57].intValue == 1)
        #expect(answer.json?["perHour"]?["track"]?.arrayValue?.last?.intValue == 2)
    }

    @Test func rejectionsCountEachCodeAndKeepTheLastReasons() async throws {
        let harness = try ConsoleHarness(listening: false)
        defer { harness.stop() }
        let session = try await harness.signIn()
        _ = try await harness.track([Self.event("track", "A", id: "r1"), ["type": "track", "messageId": "r2"]])
        _ = try await harness.track([Self.event("track", "A", id: "r1")])
        _ = try await harness.request(
            "PUT", "/v1/projects/\(ConsoleHarness.writeKey)/settings", json: ["enabled": false],
            headers: session.writeHeaders)
        let refused = try await harness.track([Self.event("track", "A", id: "r3")])
        #expect(refused.status == 403)
        let answer = try await harness.request(
            "GET", "/v1/projects/\(ConsoleHarness.writeKey)/rejections", headers: session.readHeaders)
        #expect(answer.status == 200)
        let counts = try #require(answer.json?["counts"])
        #expect(counts["invalid_message"]?.intValue == 1)
        #expect(counts["duplicate"]?.intValue == 1)
        #expect(counts["project_disabled"]?.intValue == 1)
        let recent = try #require(answer.json?["recent"]?.arrayValue)
        #expect(recent.first?["code"]?.stringValue == "project_disabled")
        #expect(recent.last?["message"]?.stringValue?.hasPrefix("batch[1]: ") == true)
    }

    @Test func settingsChangesAreKeptInAHistoryNewestFirst() async throws {
        let harness = try ConsoleHarness(listening: false)
        defer { harness.stop() }
        let session = try await harness.signIn()
        let path = "/v1/projects/\(ConsoleHarness.writeKey)/settings"
        _ = try await harness.request("PUT", path, json: ["sampleRate": 50], headers: session.writeHeaders)
        harness.clock.advance(by: .seconds(5))
        let invalid = try await harness.request("PUT", path, json: ["sampleRate": 500], headers: session.writeHeaders)
        #expect(invalid.status == 400)
        #expect(invalid.json?["error"]?["message"]?.stringValue == "sampleRate must be a number from 0 to 100")
        _ = try await harness.request("PUT", path, json: ["enabled": false], headers: session.writeHeaders)
        let answer = try await harness.request("GET", path + "/history", headers: session.readHeaders)
        let entries = try #require(answer.json?["entries"]?.arrayValue)
        #expect(entries.count == 2)
        #expect(entries[0]["after"]?["enabled"]?.boolValue == false)
        #expect(entries[0]["at"]?.stringValue == "2026-11-29T08:00:05.000Z")
        #expect(entries[1]["before"]?["sampleRate"]?.intValue == 100)
        #expect(entries[1]["after"]?["sampleRate"]?.intValue == 50)
    }

    @Test func anUnknownWriteKeyIsNotFound() async throws {
        let harness = try ConsoleHarness(listening: false)
        defer { harness.stop() }
        let session = try await harness.signIn()
        for route in ["volume", "rejections", "settings/history"] {
            let answer = try await harness.request("GET", "/v1/projects/nobody/\(route)", headers: session.readHeaders)
            #expect(answer.status == 404)
        }
    }

    @Test func theFlagEvaluationPreviewFollowsARolloutEdit() async throws {
        let harness = try ConsoleHarness(listening: false)
        defer { harness.stop() }
        let session = try await harness.signIn()
        let path = "/v1/flags/production/definitions/ramp"
        func define(_ percentage: Int) async throws -> ConsoleHarness.Answer {
            try await harness.request(
                "PUT", path,
                json: [
                    "type": "bool", "value": false,
                    "rules": [["id": "r", "rollout": ["percentage": .int(Int64(percentage))], "value": true]],
                ], headers: session.writeHeaders)
        }
        func preview() async throws -> Bool? {
            let answer = try await harness.request(
                "POST", "/v1/flags/production/evaluate",
                json: ["context": ["targetingKey": "user-7"], "flags": ["ramp"]])
            return answer.json?["flags"]?["ramp"]?["value"]?.boolValue
        }
        #expect(try await define(0).status == 200)
        #expect(try await preview() == false)
        #expect(try await define(100).status == 200)
        #expect(try await preview() == true)
        let invalid = try await define(150)
        #expect(invalid.status == 422)
        #expect(invalid.json?["error"]?["message"]?.stringValue?.contains("percentage") == true)
    }
}
