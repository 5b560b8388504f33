@testable import Analytics
import Testing

/// An instance the app released before its pipeline started: the pipeline still writes what it
/// was given, but starts nothing on the app's behalf, not even the settings fetch.
@Suite(.timeLimit(.minutes(1)))
struct ReleasedPipelineTests {
    @Test func aPipelineWhoseInstanceWasReleasedFetchesNoSettings() async throws {
        let harness = try SDKHarness()
        let configuration = harness.configuration { $0.fetchesRemoteSettings = true }
        let mailbox = Mailbox(capacity: 16)
        mailbox.close()  // the app let go before the pipeline's task ran
        let pipeline = AnalyticsPipeline(configuration: configuration, stats: StatsRecorder())
        await pipeline.run(mailbox)
        #expect(await pipeline.settingsFetchStarted == false)
    }
}
