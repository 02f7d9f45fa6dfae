import Foundation

/// An `application/x-www-form-urlencoded` body, decoded strictly: malformed escapes, bytes that
/// are not UTF-8 and repeated names are errors.
struct FormBody {
    private(set) var fields: [String: String] = [:]

    enum Problem: Error {
        case malformed
        case duplicate(String)
    }

    init(_ body: Data) throws(Problem) {
        guard let text = String(data: body, encoding: .utf8) else { throw .malformed }
        for piece in text.split(separator: "&", omittingEmptySubsequences: true) {
            let halves = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = FormBody.unescape(halves[0]), !name.isEmpty else { throw .malformed }
            guard let value = halves.count > 1 ? FormBody.unescape(halves[1]) : "" else { throw .malformed }
            guard fields[name] == nil else { throw .duplicate(name) }
            fields[name] = value
        }
    }

    subscript(name: String) -> String? {
        guard let value = fields[name], !value.isEmpty else { return nil }
        return value
    }

    private static func unescape(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"): bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hex), let low = iterator.next().flatMap(hex) else { return nil }
                bytes.append(high << 4 | low)
            default: bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 48...57: return byte - 48
        case 65...70: return byte - 55
        case 97...102: return byte - 87
        default: return nil
        }
    }
}

/// Query strings, decoded leniently (unknown and malformed parameters are ignored, as the real
/// service ignores unknown query parameters).
enum QueryString {
    static func parse(_ query: Substring) -> [String: String] {
        var out: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(parts[0])
            let value = parts.count > 1 ? (String(parts[1]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "") : ""
            out[name] = value
        }
        return out
    }
}
