import Foundation

// Top-level code runs on the main actor; everything that civetweb or a signal calls lives in
// `ServerCommand`, which is nonisolated.
exit(ServerCommand.run(Array(CommandLine.arguments.dropFirst())))
