import HTTPMessages

/// `application/x-www-form-urlencoded` fields of a request body (vendors' callbacks).
public enum FormBody {
    public static func fields(_ body: [UInt8]) -> [(String, String)] {
        String(decoding: body, as: UTF8.self).split(separator: "&").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(parts[0]) else { return nil }
            return (name, parts.count > 1 ? (decode(parts[1]) ?? "") : "")
        }
    }

    private static func decode(_ text: Substring) -> String? {
        String(text.replacingOccurrences(of: "+", with: " ")).removingPercentEncodingSafely()
    }
}

import Foundation
