import Foundation

/// `application/x-www-form-urlencoded` bodies as the native-auth API expects them (docs/protocol.md#request-body):
/// UTF-8, unreserved characters kept, space as `+`, everything else percent-encoded, absent values
/// omitted rather than sent empty.
package enum FormEncoding {
    private static let unreserved: Set<UInt8> = Set(
        Array(UInt8(ascii: "A")...UInt8(ascii: "Z")) + Array(UInt8(ascii: "a")...UInt8(ascii: "z"))
            + Array(UInt8(ascii: "0")...UInt8(ascii: "9")) + [UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~")]
    )

    /// Encodes fields in the given order, leaving out those whose value is nil.
    package static func encode(_ fields: [(String, String?)]) -> Data {
        var out = ""
        for (name, value) in fields {
            guard let value else { continue }
            if !out.isEmpty { out += "&" }
            out += escape(name)
            out += "="
            out += escape(value)
        }
        return Data(out.utf8)
    }

    package static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if unreserved.contains(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else if byte == UInt8(ascii: " ") {
                out += "+"
            } else {
                out += "%"
                out += String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }

    /// Decodes a form body into ordered pairs, accepting `+` and `%20` for a space.
    /// Returns nil for malformed percent escapes or bytes that are not UTF-8.
    package static func decode(_ body: Data) -> [(String, String)]? {
        let text = String(decoding: body, as: UTF8.self)
        guard !text.isEmpty else { return [] }
        var pairs: [(String, String)] = []
        for piece in text.split(separator: "&", omittingEmptySubsequences: true) {
            let halves = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = unescape(halves[0]) else { return nil }
            let value = halves.count > 1 ? unescape(halves[1]) : ""
            guard let value else { return nil }
            pairs.append((name, value))
        }
        return pairs
    }

    private static func unescape(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            default:
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
