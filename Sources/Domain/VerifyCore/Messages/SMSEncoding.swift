/// The character set an SMS travels in (3GPP TS 23.038).
///
/// A text made only of characters of the GSM 7-bit default alphabet (basic table plus the
/// extension table reached through an escape) is sent as GSM-7; anything else forces the whole
/// message into UCS-2 (in practice UTF-16: characters outside the Basic Multilingual Plane,
/// such as most emoji, take two units).
public enum SMSEncoding: String, Sendable, Equatable, CaseIterable {
    /// GSM 03.38 7-bit default alphabet: 160 septets in one segment.
    case gsm7
    /// 16-bit units: 70 in one segment.
    case ucs2

    /// Units that fit in a message sent as a single segment (140 octets).
    public var singleSegmentUnits: Int {
        switch self {
        case .gsm7: 160
        case .ucs2: 70
        }
    }

    /// Units per part of a concatenated message (the user data header takes 6 octets).
    public var concatenatedSegmentUnits: Int {
        switch self {
        case .gsm7: 153
        case .ucs2: 67
        }
    }

    /// Septets a scalar takes in GSM-7: 1 for the basic table, 2 for the extension table
    /// (escape + character), nil when it is not in the default alphabet.
    public static func gsm7Septets(_ scalar: Unicode.Scalar) -> Int? {
        if gsm7Basic.contains(scalar) { return 1 }
        if gsm7Extension.contains(scalar) { return 2 }
        return nil
    }

    /// The basic table of the GSM 7-bit default alphabet, as mapped to Unicode by the
    /// Unicode Consortium's GSM0338 table (0x09 is U+00C7 "Ç"; the lowercase "ç" is not in it).
    static let gsm7Basic: Set<Unicode.Scalar> = Set(
        ("@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?"
            + "¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà").unicodeScalars)

    /// The extension table: each of these costs an escape septet plus its own.
    static let gsm7Extension: Set<Unicode.Scalar> = Set("\u{0C}^{}\\[~]|€".unicodeScalars)
}

/// How a text is sent as SMS: its encoding, its length in that encoding's units, and the number
/// of segments (parts) it is split into.
public struct SMSSegments: Sendable, Equatable {
    /// GSM-7 when every character is in the default alphabet, otherwise UCS-2.
    public let encoding: SMSEncoding
    /// Septets for GSM-7 (extension characters count 2), UTF-16 code units for UCS-2.
    public let units: Int
    /// Parts the message is sent in: 1 up to 160 / 70 units, then parts of 153 / 67 units.
    /// An empty text has 0 segments.
    public let segments: Int

    /// A measurement with the given values.
    public init(encoding: SMSEncoding, units: Int, segments: Int) {
        self.encoding = encoding
        self.units = units
        self.segments = segments
    }

    /// Whether the text goes out as a single segment (140 octets: also the size limit of the
    /// Android SMS Retriever API).
    public var isSingleSegment: Bool { segments <= 1 }

    /// Measures `text` as a sender would encode it.
    ///
    /// Parts of a concatenated message are filled greedily and a character is never split
    /// between two parts: an extension character (escape + character) or a UTF-16 surrogate
    /// pair that does not fit at the end of a part starts the next one, as senders do.
    public static func measure(_ text: String) -> SMSSegments {
        var septets: [Int] = []
        septets.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            guard let cost = SMSEncoding.gsm7Septets(scalar) else {
                return pack(text.unicodeScalars.map { $0.utf16.count }, encoding: .ucs2)
            }
            septets.append(cost)
        }
        return pack(septets, encoding: .gsm7)
    }

    /// Counts units and segments for per-character costs in `encoding`.
    private static func pack(_ costs: [Int], encoding: SMSEncoding) -> SMSSegments {
        let units = costs.reduce(0, +)
        if units == 0 { return SMSSegments(encoding: encoding, units: 0, segments: 0) }
        if units <= encoding.singleSegmentUnits {
            return SMSSegments(encoding: encoding, units: units, segments: 1)
        }
        let capacity = encoding.concatenatedSegmentUnits
        var segments = 1
        var used = 0
        for cost in costs {
            if used + cost > capacity {
                segments += 1
                used = 0
            }
            used += cost
        }
        return SMSSegments(encoding: encoding, units: units, segments: segments)
    }
}
