// libFuzzer harness for the parsers that take bytes from the network. Built normally it only
// explains how to build it; the fuzzing build is
//
//   swift build -j 1 -c release --product signal-fuzz -Xswiftc -DSIGNAL_FUZZ \
//       -Xswiftc -sanitize=fuzzer,address -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld
//   .build/release/signal-fuzz corpus/ -max_len=512 -max_total_time=60
//
// (lld because ld.gold fails with an internal error on this link.)
import SignalProtocol

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every network-facing parser must refuse any input with an error, never crash.
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    _ = try? SignalMessage(serialized: bytes)
    _ = try? PreKeySignalMessage(serialized: bytes)
    _ = try? SenderKeyMessage(serialized: bytes)
    _ = try? SenderKeyDistributionMessage(serialized: bytes)
    if let type = bytes.first { _ = try? CiphertextMessage(type: type, serialized: Array(bytes.dropFirst())) }
    return 0
}

#if SIGNAL_FUZZ
    // SwiftPM gives every executable target its own `main`, which hides libFuzzer's, so the
    // driver is started explicitly.
    @_silgen_name("LLVMFuzzerRunDriver")
    func llvmFuzzerRunDriver(
        _ argc: UnsafeMutablePointer<CInt>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) -> CInt

    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    exit(llvmFuzzerRunDriver(&argc, &argv, fuzzOneInput))
#else
    print("signal-fuzz: rebuild with -Xswiftc -DSIGNAL_FUZZ -Xswiftc -sanitize=fuzzer,address (see main.swift)")
    // Without libFuzzer, run the inputs named on the command line once (regression replay).
    for path in CommandLine.arguments.dropFirst() {
        guard let file = fopen(path, "rb") else { continue }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        fclose(file)
        _ = bytes.withUnsafeBufferPointer { fuzzOneInput($0.baseAddress, $0.count) }
    }
#endif
