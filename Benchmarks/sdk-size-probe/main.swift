import Analytics
import Foundation

// An app that links the analytics SDK and uses it, for `courier-bench sdk-size` to weigh beside
// `hello-size-probe`. It never runs in the benchmark; it is only built and measured.
let analytics = Analytics.configure(
    writeKey: CommandLine.arguments.dropFirst().first ?? "key", host: "http://127.0.0.1:9")
analytics.identify(userId: "user-1", traits: ["plan": "pro"])
analytics.track("App Opened", properties: ["from": "size-probe"])
analytics.screen("Home")
print(Date(), "tracked")
