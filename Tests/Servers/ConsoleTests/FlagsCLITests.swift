import CourierCore
import CourierHTTP
import CourierTesting
import Synchronization
import Testing

/// `courier flags set` changes only the fields given, `flags revive` undoes a kill, and
/// `flags segment set|list` defines the segments rules name.
@Suite(.timeLimit(.minutes(1)))
struct FlagsCLITests {
    /// The cells of `key`'s row in `flags list`'s table: flag, type, state, owner, expires.
    static func listed(_ harness: ConsoleHarness, _ key: String) async throws -> [String]? {
        let list = try await ObservationCLITests.courier(harness, ["flags", "list", "--env", "production"])
        #expect(list.status == 0, "\(list.errorOutput)")
        #expect(list.output.hasPrefix("FLAG"), "\(list.output)")
        return list.output.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
            .first { $0.first == key }
    }

    @Test func anOwnerAloneKeepsTheRestOfTheDefinition() async throws {
        let harness = try ConsoleHarness()
        defer { harness.stop() }
        let created = try await ObservationCLITests.courier(
            harness, ["flags", "set", "dark-mode", "--env", "production", "--type", "bool", "--value", "false"])
        #expect(created.status == 0, "\(created.errorOutput)")
        let owner = try await ObservationCLITests.courier(
            harness, ["flags", "set", "dark-mode", "--env", "production", "--owner", "design"])
        #expect(owner.status == 0, "\(owner.errorOutput)")
        let answer = try JSONParser.parse(Array(owner.output.utf8))
        #expect(answer["flag"]?["type"]?.stringValue == "bool", "\(owner.output)")
        #expect(answer["flag"]?["value"]?.boolValue == false)
        #expect(answer["flag"]?["owner"]?.stringValue == "design")
    }

    @Test func reviveTurnsTheKillSwitchOffAgain() async throws {
        let harness = try ConsoleHarness()
        defer { harness.stop() }
        let env = ["--env", "production"]
        #expect(
            try await ObservationCLITests.courier(
                harness, ["flags", "set", "ramp", "--type", "string", "--value", "a", "--owner", "growth"] + env
            ).status == 0)
        #expect(try await ObservationCLITests.courier(harness, ["flags", "kill", "ramp"] + env).status == 0)
        #expect(try await Self.listed(harness, "ramp") == ["ramp", "string", "killed", "growth", "-"])
        let revived = try await ObservationCLITests.courier(harness, ["flags", "revive", "ramp"] + env)
        #expect(revived.status == 0, "\(revived.errorOutput)")
        #expect(try await Self.listed(harness, "ramp") == ["ramp", "string", "on", "growth", "-"])

        let audit = try await ObservationCLITests.courier(harness, ["flags", "audit"] + env)
        let rows = audit.output.split(separator: "\n")
        #expect(rows.first?.hasPrefix("AT") == true, "\(audit.output)")
        #expect(rows.first?.contains("ACTOR") == true, "\(audit.output)")
        #expect(
            rows.dropFirst().allSatisfy { $0.contains("admin-api") }, "the CLI uses the admin token: \(audit.output)")
        #expect(rows.count == 4, "a header, set, kill, revive: \(audit.output)")
        #expect(rows.dropFirst().first?.contains("enabled no → yes") == true, "\(audit.output)")

        let missing = try await ObservationCLITests.courier(harness, ["flags", "revive", "nothing"] + env)
        #expect(missing.status == 1)
        #expect(missing.errorOutput.contains("there is no flag nothing in environment production"))
    }

    @Test func aSegmentDefinedFromTheCLIIsListedAndMatchedThroughARule() async throws {
        let harness = try ConsoleHarness()
        defer { harness.stop() }
        let env = ["--env", "production"]
        let made = try await ObservationCLITests.courier(
            harness,
            [
                "flags", "segment", "set", "beta-testers", "--condition", "plan in pro,team", "--condition",
                "country equals FR",
            ]
                + env)
        #expect(made.status == 0, "\(made.errorOutput)")

        let list = try await ObservationCLITests.courier(harness, ["flags", "segment", "list"] + env)
        #expect(list.status == 0, "\(list.errorOutput)")
        let rows = list.output.split(separator: "\n").map(String.init)
        #expect(rows.first?.hasPrefix("SEGMENT") == true, "\(list.output)")
        #expect(rows.dropFirst().first == "beta-testers  plan in pro,team; country equals FR", "\(list.output)")
        let json = try await ObservationCLITests.courier(harness, ["flags", "segment", "list", "--json"] + env)
        #expect(try JSONParser.parse(Array(json.output.utf8))["segments"]?.arrayValue?.count == 1, "\(json.output)")

        // The docs' example: a rule that names the segment is now accepted and matches.
        let rule = #"{"type":"bool","value":false,"rules":[{"id":"beta","segments":["beta-testers"],"value":true}]}"#
        let flag = try await ObservationCLITests.courier(
            harness, ["flags", "set", "new-checkout", "--definition", rule] + env)
        #expect(flag.status == 0, "\(flag.errorOutput)")
        let matched = try await ObservationCLITests.courier(
            harness, ["flags", "eval", "new-checkout", "plan=team", "country=FR", "--targeting-key", "u1"] + env)
        #expect(try JSONParser.parse(Array(matched.output.utf8))["value"]?.boolValue == true, "\(matched.output)")

        let malformed = try await ObservationCLITests.courier(
            harness, ["flags", "segment", "set", "broken", "--condition", "plan"] + env)
        #expect(malformed.status == 1)
        #expect(
            malformed.errorOutput.contains("--condition takes ATTRIBUTE OPERATOR VALUE[,VALUE...], got plan"),
            "\(malformed.errorOutput)")
        let unknown = try await ObservationCLITests.courier(
            harness, ["flags", "segment", "set", "broken", "--condition", "plan like pro"] + env)
        #expect(unknown.status == 1)
        #expect(unknown.errorOutput.contains("conditions[0].operator: must be one of"), "\(unknown.errorOutput)")
    }
}

/// `courier flags set --owner` against a server whose environment another editor changes between
/// each of the command's reads and writes, `refusals` times: each write carries the version just
/// read as `If-Match`, and the command reads and edits again after each 412, five attempts in all.
@Suite(.timeLimit(.minutes(1)))
struct FlagsCLIRetryTests {
    /// The server's record of what the command sent.
    final class Stub: Sendable {
        struct State {
            var version: Int64 = 4
            var refusalsLeft: Int
            var reads: [Int64] = []
            var ifMatches: [String] = []
        }
        let state: Mutex<State>
        init(refusals: Int) { state = Mutex(State(refusalsLeft: refusals)) }
    }

    static func server(_ stub: Stub) throws -> HTTPServer {
        var router = Router()
        router.add("GET", "/v1/flags/production/definitions") { _ in
            let version = stub.state.withLock { state in
                state.reads.append(state.version)
                return state.version
            }
            return .json([
                "environment": "production", "version": .int(version),
                "flags": [["key": "ramp", "type": "bool", "value": false]], "segments": [],
            ])
        }
        router.add("PUT", "/v1/flags/production/definitions/ramp") { request in
            let refused = stub.state.withLock { state -> Bool in
                state.ifMatches.append(request.header("if-match") ?? "")
                guard state.refusalsLeft > 0 else { return false }
                state.refusalsLeft -= 1
                state.version += 1  // another editor's change, just before this write
                return true
            }
            if refused { throw HTTPError(HTTPError.Code("environment_changed", status: 412), "it changed") }
            return .json(["version": 99, "flag": (try? JSONParser.parse(request.body)) ?? .null])
        }
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        let server = HTTPServer(configuration: configuration, router: router)
        try server.start()
        return server
    }

    static func setOwner(_ server: HTTPServer) async throws -> ChildProcess.Outcome {
        let cli = try #require(builtExecutable(named: "courier"), "build courier first (swift build)")
        let arguments = [
            "flags", "set", "ramp", "--env", "production", "--owner", "growth", "--server", server.baseURL,
            "--admin-token", ConsoleHarness.adminToken,
        ]
        return try await offPool { try ChildProcess.run(cli, arguments) }
    }

    @Test func aChangeBetweenReadAndWriteIsReadAgainAndTheEditMadeAfresh() async throws {
        let stub = Stub(refusals: 2)
        let server = try Self.server(stub)
        defer { inBackground { server.stop() } }
        let outcome = try await Self.setOwner(server)
        #expect(outcome.status == 0, "\(outcome.errorOutput)")
        let answer = try JSONParser.parse(Array(outcome.output.utf8))
        #expect(answer["flag"]?["owner"] == "growth")
        #expect(answer["flag"]?["type"] == "bool")
        let state = stub.state.withLock { $0 }
        #expect(state.reads == [4, 5, 6])
        #expect(state.ifMatches == ["\"4\"", "\"5\"", "\"6\""])
    }

    @Test func anEnvironmentThatKeepsChangingIsGivenUpAfterFiveAttempts() async throws {
        let stub = Stub(refusals: 100)
        let server = try Self.server(stub)
        defer { inBackground { server.stop() } }
        let outcome = try await Self.setOwner(server)
        #expect(outcome.status == 1)
        #expect(
            outcome.errorOutput.contains(
                "environment production kept changing while ramp was edited; gave up after 5 attempts"),
            "\(outcome.errorOutput)")
        #expect(stub.state.withLock { $0.ifMatches.count } == 5)
    }
}
