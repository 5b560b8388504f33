import Foundation

// Top-level code runs on the main actor; everything that the engine's threads or a signal call lives in
// `ServerCommand`, which is nonisolated.
exit(await ServerCommand.run(Array(CommandLine.arguments.dropFirst())))
