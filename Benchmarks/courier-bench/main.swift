import Foundation

// Each benchmark prints its figure beside a peer or ceiling measured in the same run.
exit(BenchCommand.run(Array(CommandLine.arguments.dropFirst())))
