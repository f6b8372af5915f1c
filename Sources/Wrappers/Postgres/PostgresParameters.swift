import CPostgres

/// Parameters flattened into the parallel arrays `PQexecParams` and
/// `PQexecPrepared` take: values back to back in one buffer, with their
/// lengths, formats (0 text, 1 binary) and declared type OIDs.
struct PostgresParameters {
    /// Every value's bytes; text values are NUL-terminated. Never empty, so an
    /// empty `bytea` still gets a non-NULL pointer (NULL would mean SQL NULL).
    private var storage: [UInt8] = []
    /// Where each value starts in `storage`; `nil` for SQL NULL.
    private var offsets: [Int?] = []
    private(set) var lengths: [Int32] = []
    private(set) var formats: [Int32] = []
    /// `int8`, `float8`, `bool` and `bytea` are declared; text and NULL are 0 (inferred by the server).
    private(set) var types: [Oid] = []

    /// The number of parameters.
    var count: Int32 { Int32(offsets.count) }

    /// Encodes `values`; throws for text containing NUL, which PostgreSQL cannot store.
    init(_ values: [PostgresValue], sql: String) throws {
        for (index, value) in values.enumerated() {
            switch value {
            case .null:
                offsets.append(nil)
                lengths.append(0)
                formats.append(0)
                types.append(0)
            case .int(let number):
                appendText(String(number), type: PostgresType.int8)
            case .double(let number):
                appendText(Self.text(number), type: PostgresType.float8)
            case .bool(let flag):
                appendText(flag ? "t" : "f", type: PostgresType.bool)
            case .text(let text):
                guard !text.utf8.contains(0) else {
                    throw PostgresError(kind: .usage, sqlState: "22021",
                                        message: "text parameter $\(index + 1) contains a NUL character", sql: sql)
                }
                appendText(text, type: 0)
            case .bytes(let bytes):
                offsets.append(storage.count)
                storage.append(contentsOf: bytes)
                lengths.append(Int32(bytes.count))
                formats.append(1)
                types.append(PostgresType.bytea)
            }
        }
        storage.append(0)
    }

    private mutating func appendText(_ text: String, type: Oid) {
        offsets.append(storage.count)
        storage.append(contentsOf: text.utf8)
        storage.append(0)
        lengths.append(0)
        formats.append(0)
        types.append(type)
    }

    /// `float8in` accepts Swift's shortest round-trip text, but spells the specials its own way.
    private static func text(_ number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
        return "\(number)"
    }

    /// Calls `body` with C pointers to the values, lengths and formats; they
    /// are valid only during the call.
    func withPointers<R>(
        _ body: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) throws -> R
    ) rethrows -> R {
        try storage.withUnsafeBytes { raw in
            let base = raw.baseAddress!
            let values: [UnsafePointer<CChar>?] = offsets.map { offset in
                offset.map { (base + $0).assumingMemoryBound(to: CChar.self) }
            }
            return try values.withUnsafeBufferPointer { values in
                try lengths.withUnsafeBufferPointer { lengths in
                    try formats.withUnsafeBufferPointer { formats in
                        try body(values.baseAddress, lengths.baseAddress, formats.baseAddress)
                    }
                }
            }
        }
    }
}
