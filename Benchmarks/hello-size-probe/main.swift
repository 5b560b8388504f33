import Foundation

// The same app without the SDK: what `courier-bench sdk-size` compares `sdk-size-probe` with.
print(Date(), "hello")
