import Analytics
import CourierCore
import CourierTesting
import Foundation
import Testing

/// Consent and personal data: nothing leaves the device before consent, revoking forgets the
/// user, and the scrubber sees every field that can carry personal data.
@Suite(.timeLimit(.minutes(2)))
struct PrivacyTests {
    let harness: SDKHarness

    init() throws { harness = try SDKHarness() }

    @Test(arguments: [Consent.denied, .pending])
    func noRequestAtAllBeforeConsent(consent: Consent) async throws {
        harness.transport.settings.withLock { $0 = ["enabled": true] }
        let analytics = harness.make {
            $0.defaultConsent = consent
            $0.fetchesRemoteSettings = true
        }
        analytics.track("Too early")
        analytics.flush()
        _ = await analytics.flushed()
        // The pipeline answers `flushed()` after its start, where a fetch would have begun.
        #expect(analytics.settingsFetchesStarted == 0)
        #expect(harness.transport.requestCount == 0)
        analytics.setConsent(.granted)
        #expect(await poll { analytics.remoteSettingsApplied == 1 })
        analytics.track("Allowed")
        _ = await analytics.flushed()
        #expect(harness.transport.uploadedMessages.compactMap { $0["event"]?.stringValue } == ["Allowed"])
    }

    @Test func revokingConsentForgetsTheUser() async throws {
        let analytics = harness.make()
        analytics.identify(userId: "u-1", traits: ["plan": "pro"])
        analytics.track("Before")
        _ = await analytics.flushed()
        analytics.setConsent(.denied)
        analytics.setConsent(.granted)
        analytics.track("After")
        analytics.identify(userId: "u-2")
        _ = await analytics.flushed()
        let byName = Dictionary(
            harness.transport.uploadedMessages.map { (($0["event"] ?? $0["type"])?.stringValue ?? "", $0) }
        ) { a, _ in a }
        let before = try #require(byName["Before"])
        let after = try #require(byName["After"])
        #expect(before["userId"] == "u-1")
        #expect(after["userId"] == nil)
        #expect(after["anonymousId"] != before["anonymousId"])
        #expect(byName["identify"]?["traits"] == ["plan": "pro"])
        let identifies = harness.transport.uploadedMessages.filter { $0["type"] == "identify" }
        #expect(identifies.last?["traits"] == [:], "traits were forgotten with the user")
    }

    @Test func revokedIdentityIsNotStoredAcrossALaunch() async throws {
        do {
            let analytics = harness.make()
            analytics.identify(userId: "u-1")
            analytics.track("Before")
            _ = await analytics.flushed()
            analytics.setConsent(.denied)
            _ = await analytics.flushed()
        }
        let relaunched = harness.make()
        relaunched.setConsent(.granted)
        relaunched.track("After")
        _ = await relaunched.flushed()
        let messages = harness.transport.uploadedMessages
        let before = try #require(messages.first { $0["event"] == "Before" })
        let after = try #require(messages.first { $0["event"] == "After" })
        #expect(after["userId"] == nil)
        #expect(after["anonymousId"] != before["anonymousId"])
    }

    @Test func theScrubberCoversIdsNamesAndPluginContext() async throws {
        let analytics = harness.make {
            $0.plugins = [
                AnalyticsPlugin(name: "crm") { event in
                    var e = event
                    e.context["crm"] = ["contact": "jane@example.com", "phone": "+1 415 555 2671"]
                    return e
                }
            ]
        }
        analytics.identify(userId: "jane@example.com")
        analytics.group("team of bob@example.com")
        analytics.track("Called +44 20 7946 0958")
        _ = await analytics.flushed()
        let messages = harness.transport.uploadedMessages
        let text = messages.map(\.description).joined(separator: "\n")
        #expect(!text.contains("example.com"), "\(text)")
        let track = try #require(messages.first { $0["type"] == "track" })
        #expect(track["event"] == "Called [phone]")
        #expect(track["userId"] == "[email]")
        #expect(track["context"]?["crm"] == ["contact": "[email]", "phone": "[phone]"])
        #expect(messages.first { $0["type"] == "group" }?["groupId"] == "team of [email]")
    }

    @Test func idsThatAreUUIDsPassTheScrubberUnchanged() async throws {
        let analytics = harness.make()
        analytics.identify(userId: "a1b2c3d4-1234-4567-8901-abcdef123456")
        analytics.group("3f2c8a1e-77aa-4123-8123-abcdefabcdef")
        _ = await analytics.flushed()
        let messages = harness.transport.uploadedMessages
        #expect(messages.first { $0["type"] == "identify" }?["userId"] == "a1b2c3d4-1234-4567-8901-abcdef123456")
        #expect(messages.first { $0["type"] == "group" }?["groupId"] == "3f2c8a1e-77aa-4123-8123-abcdefabcdef")
    }

    /// A numeric user id given to `identify` or `alias` is a database key, kept as it is on every
    /// later event: read as a phone number, every such user would become one `[phone]` user.
    @Test func numericUserIdsFromIdentifyAndAliasAreKept() async throws {
        let analytics = harness.make()
        analytics.identify(userId: "4155550134")
        analytics.track("After identify")
        analytics.alias("98765432101")
        analytics.track("After alias")
        _ = await analytics.flushed()
        let messages = harness.transport.uploadedMessages
        #expect(messages.first { $0["type"] == "identify" }?["userId"] == "4155550134")
        #expect(messages.first { $0["event"] == "After identify" }?["userId"] == "4155550134")
        let alias = try #require(messages.first { $0["type"] == "alias" })
        #expect(alias["userId"] == "98765432101")
        #expect(alias["previousId"] == "4155550134")
        #expect(messages.first { $0["event"] == "After alias" }?["userId"] == "98765432101")
    }

    @Test func messageIdsAreRandomVersion4UUIDs() async throws {
        let analytics = harness.make { $0.flushAt = 500 }
        for _ in 0..<2_000 { analytics.track("Id") }
        _ = await analytics.flushed()
        let ids = harness.transport.uploadedMessages.compactMap { $0["messageId"]?.stringValue }
        #expect(ids.count == 2_000)
        #expect(Set(ids).count == ids.count)
        let hex = Set("0123456789abcdef")
        for id in ids {
            let parts = id.split(separator: "-", omittingEmptySubsequences: false)
            #expect(parts.map(\.count) == [8, 4, 4, 4, 12], "\(id)")
            #expect(parts[2].first == "4" && ["8", "9", "a", "b"].contains(parts[3].first), "\(id)")
            #expect(id.allSatisfy { $0 == "-" || hex.contains($0) }, "\(id)")
        }
        // Not sequential: neighbours share no long prefix and their differences are not constant.
        let values = ids.map { UInt64($0.replacingOccurrences(of: "-", with: "").prefix(16), radix: 16) ?? 0 }
        let steps = Set(zip(values, values.dropFirst()).map { $0 &- $1 })
        #expect(steps.count > ids.count / 2)
        let sharedPrefixes = zip(ids, ids.dropFirst()).filter { $0.prefix(6) == $1.prefix(6) }.count
        #expect(sharedPrefixes < 5)
    }
}
