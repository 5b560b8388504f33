import CourierHTTP
import Foundation

// Each benchmark prints its figure beside a peer or ceiling measured in the same run. The servers
// it hosts run with the allocator settings courier-server makes.
ServerMemory.retainFreedMemory()
exit(BenchCommand.run(Array(CommandLine.arguments.dropFirst())))
