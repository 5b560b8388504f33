import Foundation

exit(await CourierCommand.run(Array(CommandLine.arguments.dropFirst())))
