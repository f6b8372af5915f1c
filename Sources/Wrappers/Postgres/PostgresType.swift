import CPostgres

/// The built-in type OIDs the wrapper declares for parameters and decodes in
/// results (from `pg_type.dat`; stable across PostgreSQL versions).
enum PostgresType {
    static let bool: Oid = 16
    static let bytea: Oid = 17
    static let int8: Oid = 20
    static let int2: Oid = 21
    static let int4: Oid = 23
    static let oid: Oid = 26
    static let float4: Oid = 700
    static let float8: Oid = 701

    /// How a result column of type `oid` is decoded.
    enum Decoding {
        case int, double, bool, bytes, text
    }

    /// The decoding for a column type; unknown types are text.
    static func decoding(for type: Oid) -> Decoding {
        switch type {
        case int2, int4, int8, oid: return .int
        case float4, float8: return .double
        case bool: return .bool
        case bytea: return .bytes
        default: return .text
        }
    }
}
