import Foundation

let environment = DataDirectory.confineFoundation()
exit(await CourierCommand.run(Array(CommandLine.arguments.dropFirst()), environment: environment))
