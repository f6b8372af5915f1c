/// Finding a secret that a vendor quotes in another form than the one we sent: a voice script
/// spells the code ("4, 8, 2, 9"), SSML puts pauses between its digits, and an echoed request is
/// URL-encoded (`4%2C+8`), sometimes twice, or escaped as XML/JSON (`&#52;`, `\u0034`).
extension Redaction {
    /// One character of the decoded text and the original scalars `start..<end` it came from.
    struct Unit {
        var scalar: Unicode.Scalar
        var start: Int
        var end: Int
    }

    /// Most decoded characters (punctuation, spaces, SSML/XML tags) allowed between two
    /// characters of a spelled secret.
    static let spelledGap = 200
    /// Secrets with fewer letters and digits are only removed where they appear verbatim.
    static let spelledMinimum = 4

    /// Ranges of `scalars` that spell `secret`'s letters and digits in order (any case), with
    /// only punctuation, spaces and markup between them, after up to two rounds of decoding.
    static func spelledRanges(of secret: String, in scalars: [Unicode.Scalar]) -> [Range<Int>] {
        let wanted = secret.unicodeScalars.filter(isAlphanumeric).map(lowered)
        guard wanted.count >= spelledMinimum else { return [] }
        var units = scalars.enumerated().map { Unit(scalar: $0.element, start: $0.offset, end: $0.offset + 1) }
        units = decoded(decoded(units))
        var ranges: [Range<Int>] = []
        var i = 0
        while i < units.count {
            if lowered(units[i].scalar) == wanted[0], let last = match(wanted, in: units, from: i) {
                ranges.append(units[i].start..<units[last].end)
                i = last + 1
            } else {
                i += 1
            }
        }
        return ranges
    }

    /// The index of the unit matching `wanted`'s last character when `units[first]` starts a
    /// spelling of it, nil otherwise.
    private static func match(_ wanted: [Unicode.Scalar], in units: [Unit], from first: Int) -> Int? {
        var j = first
        for character in wanted.dropFirst() {
            j += 1
            var gap = 0
            while j < units.count, !isAlphanumeric(units[j].scalar), gap <= spelledGap {
                if units[j].scalar == "<", let close = units[j...].prefix(spelledGap).firstIndex(where: { $0.scalar == ">" }) {
                    gap += close - j + 1
                    j = close + 1
                } else {
                    gap += 1
                    j += 1
                }
            }
            guard j < units.count, gap <= spelledGap, lowered(units[j].scalar) == character else { return nil }
        }
        return j
    }

    /// One round of decoding: `%XX`, `+` (a space in a form), `&#NN;`/`&#xHH;`/`&name;` and
    /// `\uXXXX`. A decoded byte outside ASCII, or a named entity, becomes a space.
    static func decoded(_ units: [Unit]) -> [Unit] {
        var out: [Unit] = []
        out.reserveCapacity(units.count)
        var i = 0
        while i < units.count {
            let s = units[i].scalar
            if s == "%", i + 2 < units.count, let byte = hex(units[(i + 1)...(i + 2)]) {
                out.append(Unit(scalar: byte < 0x80 ? Unicode.Scalar(UInt8(byte)) : " ", start: units[i].start, end: units[i + 2].end))
                i += 3
            } else if s == "\\", i + 5 < units.count, units[i + 1].scalar == "u", let value = hex(units[(i + 2)...(i + 5)]) {
                out.append(Unit(scalar: value < 0x80 ? Unicode.Scalar(UInt8(value)) : " ", start: units[i].start, end: units[i + 5].end))
                i += 6
            } else if s == "&", let semicolon = units[i...].prefix(10).firstIndex(where: { $0.scalar == ";" }) {
                let body = units[(i + 1)..<semicolon]
                var value: UInt32?
                if body.first?.scalar == "#" {
                    let digits = body.dropFirst()
                    value = digits.first.map { $0.scalar == "x" || $0.scalar == "X" } == true
                        ? hex(digits.dropFirst()) : UInt32(String(String.UnicodeScalarView(digits.map(\.scalar))))
                }
                out.append(Unit(scalar: value.flatMap { $0 < 0x80 ? Unicode.Scalar($0) : nil } ?? " ", start: units[i].start, end: units[semicolon].end))
                i = semicolon + 1
            } else {
                out.append(Unit(scalar: s == "+" ? " " : s, start: units[i].start, end: units[i].end))
                i += 1
            }
        }
        return out
    }

    private static func hex(_ units: ArraySlice<Unit>) -> UInt32? {
        guard !units.isEmpty, units.allSatisfy({ $0.scalar.properties.isASCIIHexDigit }) else { return nil }
        return UInt32(String(String.UnicodeScalarView(units.map(\.scalar))), radix: 16)
    }

    static func isAlphanumeric(_ s: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(s) || ("a"..."z").contains(s) || ("A"..."Z").contains(s)
    }

    private static func lowered(_ s: Unicode.Scalar) -> Unicode.Scalar {
        ("A"..."Z").contains(s) ? Unicode.Scalar(s.value + 32)! : s
    }
}
