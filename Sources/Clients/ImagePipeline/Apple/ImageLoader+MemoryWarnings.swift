#if canImport(UIKit)
    import UIKit

    extension ImageLoader {
        /// Empties the memory cache on every UIKit memory warning until the returned task is
        /// cancelled.
        @MainActor
        public func trimOnMemoryWarnings() -> Task<Void, Never> {
            let name = UIApplication.didReceiveMemoryWarningNotification
            return Task { [weak self] in
                for await _ in NotificationCenter.default.notifications(named: name) {
                    self?.trimMemory(to: 0)
                }
            }
        }
    }
#endif
