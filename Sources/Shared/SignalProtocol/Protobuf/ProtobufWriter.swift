/// A minimal protobuf encoder, emitting fields in the order the caller writes them.
///
/// Records written with it hold chain and private keys, so it manages its own buffer instead of
/// a growing `[UInt8]` (whose reallocations would free copies of the secrets unwiped): a buffer it
/// outgrows is zeroed before it is freed, `takeSecret()` zeroes what it hands over, and the
/// last buffer is zeroed when the writer goes away. Not copyable, so no two writers share one.
struct ProtobufWriter: ~Copyable {
    private var storage: UnsafeMutableRawBufferPointer
    private var count = 0

    init() {
        storage = .allocate(byteCount: 64, alignment: 1)
        storage.initializeMemory(as: UInt8.self, repeating: 0)
    }

    deinit {
        Sodium.zero(storage)
        storage.deallocate()
    }

    /// A copy of what was written so far (for wire messages, which are not secret).
    var bytes: [UInt8] { Array(UnsafeRawBufferPointer(rebasing: storage[0..<count])) }

    /// The whole buffer the writer still holds, written or not; tests check that it was wiped.
    var retainedStorage: [UInt8] { Array(UnsafeRawBufferPointer(storage)) }

    private mutating func reserve(_ extra: Int) {
        let needed = count + extra
        guard needed > storage.count else { return }
        var capacity = storage.count
        while capacity < needed { capacity *= 2 }
        let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 1)
        grown.initializeMemory(as: UInt8.self, repeating: 0)
        grown.copyMemory(from: UnsafeRawBufferPointer(rebasing: storage[0..<count]))
        Sodium.zero(storage)
        storage.deallocate()
        storage = grown
    }

    private mutating func append(_ byte: UInt8) {
        reserve(1)
        storage[count] = byte
        count += 1
    }

    private mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        reserve(bytes.count)
        UnsafeMutableRawBufferPointer(rebasing: storage[count..<(count + bytes.count)]).copyMemory(from: bytes)
        count += bytes.count
    }

    mutating func writeVarint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        append(UInt8(value))
    }

    mutating func writeTag(_ field: UInt32, _ wireType: ProtobufReader.WireType) {
        writeVarint(UInt64(field) << 3 | UInt64(wireType.rawValue))
    }

    mutating func writeUInt32(_ field: UInt32, _ value: UInt32) {
        writeTag(field, .varint)
        writeVarint(UInt64(value))
    }

    mutating func writeUInt64(_ field: UInt32, _ value: UInt64) {
        writeTag(field, .varint)
        writeVarint(value)
    }

    mutating func writeBytes(_ field: UInt32, _ value: UnsafeRawBufferPointer) {
        writeTag(field, .lengthDelimited)
        writeVarint(UInt64(value.count))
        append(value)
    }

    mutating func writeBytes(_ field: UInt32, _ value: [UInt8]) {
        value.withUnsafeBytes { writeBytes(field, $0) }
    }

    mutating func writeSecret(_ field: UInt32, _ value: SecretBytes) {
        value.withUnsafeBytes { writeBytes(field, $0) }
    }

    /// Writes a nested message built by `build`; the nested writer wipes its buffer when done.
    mutating func writeMessage(_ field: UInt32, _ build: (inout ProtobufWriter) -> Void) {
        var nested = ProtobufWriter()
        build(&nested)
        writeBytes(field, UnsafeRawBufferPointer(rebasing: nested.storage[0..<nested.count]))
    }

    /// Moves the output into zero-on-free storage and wipes the working buffer.
    mutating func takeSecret() -> SecretBytes {
        let secret = SecretBytes(UnsafeRawBufferPointer(rebasing: storage[0..<count]))
        Sodium.zero(storage)
        count = 0
        return secret
    }
}
