import Console
import CourierCore
import Foundation
import Testing

/// The page and its assets: served by the server itself, under a strict Content-Security-Policy.
@Suite(.timeLimit(.minutes(1)))
struct PageTests {
    @Test(arguments: [
        "/console/", "/console", "/console/app.js", "/console/sources.js", "/console/flag-editor.js",
        "/console/flags.js",
        "/console/messenger.js",
        "/console/app.css",
    ])
    func everyAssetIsServedWithAStrictPolicy(path: String) async throws {
        let harness = try ConsoleHarness(listening: false)
        defer { harness.stop() }
        let answer = try await harness.request("GET", path)
        #expect(answer.status == 200)
        let policy = try #require(answer.header("content-security-policy"))
        #expect(policy.contains("default-src 'none'"))
        #expect(policy.contains("script-src 'self'"))
        #expect(policy.contains("frame-ancestors 'none'"))
        #expect(!policy.contains("unsafe"))
        #expect(answer.header("x-content-type-options") == "nosniff")
        #expect(!answer.text.contains("http://") || path.hasSuffix(".js"))
    }

    @Test func thePageHasNoInlineScriptAndALabelForEveryControl() async throws {
        let harness = try ConsoleHarness(listening: false)
        defer { harness.stop() }
        let html = try await harness.request("GET", "/console/").text
        let scripts = html.components(separatedBy: "<script").dropFirst()
        #expect(scripts.count == 5)
        #expect(scripts.allSatisfy { $0.hasPrefix(" src=\"/console/") && $0.contains("></script>") })
        #expect(html.range(of: #"\son[a-z]+="#, options: .regularExpression) == nil)
        #expect(!html.contains("style="))
        let controlIds = html.matches(of: /<(?:input|select|textarea)[^>]*\sid="([^"]+)"/).map { String($0.1) }
        #expect(controlIds.count >= 12)
        for id in controlIds {
            #expect(html.contains("<label for=\"\(id)\""), "no label for \(id)")
        }
    }

    @Test func scriptsPutServerTextInThePageOnlyAsText() async throws {
        let harness = try ConsoleHarness(listening: false)
        defer { harness.stop() }
        for script in [
            "/console/app.js", "/console/sources.js", "/console/flag-editor.js", "/console/flags.js",
            "/console/messenger.js",
        ] {
            let text = try await harness.request("GET", script).text
            for sink in ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"] {
                #expect(!text.contains(sink), "\(script) uses \(sink)")
            }
        }
    }
}
