import Foundation

package enum Base64URL {
    /// Decodes base64url (or plain base64), with or without padding. Nil for anything else.
    ///
    /// Text of the two alphabets followed by nothing but `=` padding (what servers send) is decoded
    /// here; anything else (an `=` before the end, another character) goes to Foundation's decoder,
    /// as all text did before, so every answer is the same (Base64URLTests compares them). Foundation's
    /// path bridges to `NSString`, whose first use costs a fresh process about 0.1 ms.
    package static func decode(_ text: some StringProtocol) -> Data? {
        var sextets: [UInt8] = []
        sextets.reserveCapacity(text.utf8.count)
        var padded = false
        for byte in text.utf8 {
            if byte == UInt8(ascii: "=") {
                padded = true
                continue
            }
            guard !padded, let value = sextet(byte) else { return foundationDecode(text) }
            sextets.append(value)
        }
        guard sextets.count % 4 != 1 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(sextets.count * 3 / 4)
        var index = 0
        while index + 1 < sextets.count {
            let group = sextets[index..<min(index + 4, sextets.count)]
            var bits: UInt32 = 0
            for value in group { bits = bits << 6 | UInt32(value) }
            bits <<= UInt32(6 * (4 - group.count))
            bytes.append(UInt8(truncatingIfNeeded: bits >> 16))
            if group.count > 2 { bytes.append(UInt8(truncatingIfNeeded: bits >> 8)) }
            if group.count > 3 { bytes.append(UInt8(truncatingIfNeeded: bits)) }
            index += 4
        }
        return Data(bytes)
    }

    /// A character's value in base64 or base64url; nil for any other.
    private static func sextet(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"), UInt8(ascii: "-"): 62
        case UInt8(ascii: "/"), UInt8(ascii: "_"): 63
        default: nil
        }
    }

    /// Foundation's reading: both alphabets made one, padding restored.
    package static func foundationDecode(_ text: some StringProtocol) -> Data? {
        var base64 = String(text).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        guard base64.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "/" || $0 == "=") }) else {
            return nil
        }
        while base64.hasSuffix("=") { base64.removeLast() }
        guard base64.count % 4 != 1 else { return nil }
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }

    /// Encodes without padding.
    package static func encode(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
