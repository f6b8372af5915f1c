/// ASCII character classes, written once for every module. Codes, phone numbers, region codes
/// and vendor identifiers are ASCII by contract, and `Character.isNumber` / `isLetter` alone
/// accept "٣" or "é", so each check used to pair them with `isASCII` or compare byte values by
/// hand (`$0 >= 48 && $0 <= 57`).
public enum ASCII {
    public static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
    public static func isUppercase(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) }
    public static func isLowercase(_ byte: UInt8) -> Bool { (0x61...0x7A).contains(byte) }
    public static func isLetter(_ byte: UInt8) -> Bool { isUppercase(byte) || isLowercase(byte) }
    public static func isAlphanumeric(_ byte: UInt8) -> Bool { isLetter(byte) || isDigit(byte) }
    /// 0–9, a–f, A–F.
    public static func isHexDigit(_ byte: UInt8) -> Bool { isDigit(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte) }

    // A Character is in a class when it is one ASCII byte in it ("\r\n" has an ASCII value
    // but is not a digit or a letter).
    public static func isDigit(_ character: Character) -> Bool { character.asciiValue.map(isDigit) ?? false }
    public static func isUppercase(_ character: Character) -> Bool { character.asciiValue.map(isUppercase) ?? false }
    public static func isLetter(_ character: Character) -> Bool { character.asciiValue.map(isLetter) ?? false }
    public static func isAlphanumeric(_ character: Character) -> Bool { character.asciiValue.map(isAlphanumeric) ?? false }
}
