import Foundation
import Testing

@testable import Analytics

/// Where the queue lives when the app names no `storageDirectory`.
struct DefaultDirectoryTests {
    #if !canImport(Darwin)
        @Test func onLinuxTheQueueFollowsHOMENotThePasswordDatabase() {
            let directory = AnalyticsPipeline.defaultDirectory(environment: ["HOME": "/tmp/somebody-else"])
            #expect(directory.path == "/tmp/somebody-else/.courier-analytics")
        }

        @Test(arguments: [[:], ["HOME": ""], ["HOME": "relative/home"]])
        func withoutAnAbsoluteHOMEItFallsBackToTheAccountsHome(environment: [String: String]) {
            let directory = AnalyticsPipeline.defaultDirectory(environment: environment)
            let expected = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".courier-analytics")
            #expect(directory.path == expected.path)
        }
    #endif
}
