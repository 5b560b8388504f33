#if canImport(UIKit) && !os(watchOS)
    import UIKit

    /// Connects UIKit's lifecycle notifications to an `Analytics` instance: background (inside a
    /// background task, so the upload can finish), foreground and termination.
    @MainActor
    public final class ApplicationLifecycleObserver {
        private var tokens: [NSObjectProtocol] = []

        /// Starts observing for `analytics`.
        public init(analytics: Analytics) {
            let center = NotificationCenter.default
            tokens.append(
                center.addObserver(forName: UIApplication.didEnterBackgroundNotification, object: nil, queue: .main) {
                    _ in
                    MainActor.assumeIsolated {
                        var task = UIBackgroundTaskIdentifier.invalid
                        task = UIApplication.shared.beginBackgroundTask(withName: "courier-analytics") {
                            UIApplication.shared.endBackgroundTask(task)
                        }
                        analytics.applicationDidEnterBackground()
                        Task {
                            _ = await analytics.flushed()
                            await MainActor.run { UIApplication.shared.endBackgroundTask(task) }
                        }
                    }
                })
            tokens.append(
                center.addObserver(forName: UIApplication.willEnterForegroundNotification, object: nil, queue: .main) {
                    _ in
                    analytics.applicationWillEnterForeground()
                })
            tokens.append(
                center.addObserver(forName: UIApplication.willTerminateNotification, object: nil, queue: .main) { _ in
                    analytics.applicationWillTerminate()
                })
        }

        deinit {
            // Observers hold only `analytics`; removing them here is safe from any thread.
            tokens.forEach { NotificationCenter.default.removeObserver($0) }
        }
    }
#endif
