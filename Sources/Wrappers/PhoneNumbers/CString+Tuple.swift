/// Decodes a NUL-terminated C `char[N]` field, which Swift imports as a tuple of `CChar`.
///
/// Reads at most the tuple's own bytes, so a missing terminator cannot over-read;
/// invalid UTF-8 is repaired rather than trapping.
func string<Tuple>(fromCCharTuple tuple: Tuple) -> String {
    withUnsafeBytes(of: tuple) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
}
