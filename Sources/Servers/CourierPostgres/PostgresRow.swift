internal import CLibPQ
import CourierCore

/// One row of a result, read by column index; valid only inside the `row` closure of a query.
/// Results arrive in PostgreSQL's binary format, decoded by column type.
public struct PostgresRow: DatabaseRow {
    let result: OpaquePointer
    let index: Int32

    /// Whether the column is NULL.
    public func isNull(_ column: Int32) -> Bool { PQgetisnull(result, index, column) != 0 }

    /// The column as an integer (`smallint`, `integer`, `bigint`, `boolean`); 0 when NULL.
    public func int(_ column: Int32) -> Int64 {
        guard !isNull(column), let value = PQgetvalue(result, index, column) else { return 0 }
        let length = Int(PQgetlength(result, index, column))
        var number: Int64 = 0
        let bytes = UnsafeRawPointer(value).assumingMemoryBound(to: UInt8.self)
        for offset in 0..<length { number = number << 8 | Int64(bytes[offset]) }
        switch length {
        case 1: return Int64(Int8(truncatingIfNeeded: number))
        case 2: return Int64(Int16(truncatingIfNeeded: number))
        case 4: return Int64(Int32(truncatingIfNeeded: number))
        default: return number
        }
    }

    /// The column as a `double precision`; 0 when NULL.
    public func double(_ column: Int32) -> Double {
        guard !isNull(column) else { return 0 }
        if PQftype(result, column) == 701 { return Double(bitPattern: UInt64(bitPattern: int(column))) }
        return Double(Float(bitPattern: UInt32(truncatingIfNeeded: int(column))))
    }

    /// The column as text (`text`, `varchar`, a `bytea` read as UTF-8); `nil` when NULL.
    public func text(_ column: Int32) -> String? {
        guard !isNull(column) else { return nil }
        return String(decoding: bytes(column), as: UTF8.self)
    }

    /// The column's bytes (a `bytea`'s content, a text's UTF-8); empty when NULL.
    public func bytes(_ column: Int32) -> [UInt8] {
        guard !isNull(column), let value = PQgetvalue(result, index, column) else { return [] }
        let length = Int(PQgetlength(result, index, column))
        return Array(UnsafeRawBufferPointer(start: value, count: length))
    }
}
