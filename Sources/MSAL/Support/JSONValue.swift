import Foundation

/// A JSON value held as a `Sendable` Swift value.
///
/// The SDK keeps decoded claims and attributes in this form so that results can cross actors,
/// and converts to Foundation's `Any` shapes only at the public surface where MSAL uses them.
package enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses UTF-8 JSON text. Returns nil for anything that is not JSON.
    ///
    /// Answers as Foundation's `JSONDecoder` does (JSONValueParseTests compares them). Text that
    /// the cache's scanner reads strictly (UTF-8, no member name twice, numbers without an exponent
    /// and within a `Double`'s normal range) is decoded by it; the rest (a byte-order mark, UTF-16, trailing commas,
    /// which `JSONDecoder` accepts, and anything malformed) goes to `JSONDecoder`, whose first
    /// use costs a fresh process about 0.1 ms (BENCHMARKS.md, "fresh process").
    package static func parse(_ data: Data) -> JSONValue? {
        scanned(data) ?? (try? JSONDecoder().decode(JSONValue.self, from: data))
    }

    /// The scanner's strict reading; nil when it leaves the text to `JSONDecoder`.
    static func scanned(_ data: Data) -> JSONValue? {
        data.withUnsafeBytes { raw in
            let buffer = raw.bindMemory(to: UInt8.self)
            guard UTF8Check.isValid(buffer) else { return nil }
            var scanner = JSONScanner(buffer)
            guard let value = try? scanner.decodeValue(depth: 1, strict: true) else { return nil }
            scanner.skipWhitespace()
            return scanner.atEnd ? value : nil
        }
    }

    /// Converts a value produced by `JSONSerialization` (or built by an app from the same kinds of
    /// values). Returns nil for anything JSON cannot represent.
    package init?(foundation value: Any) {
        switch value {
        case is NSNull:
            self = .null
        case let number as NSNumber:
            // JSONSerialization and Swift literals both arrive here; Booleans keep their kind.
            self = isBoolean(number) ? .bool(number.boolValue) : .number(number.doubleValue)
        case let string as String:
            self = .string(string)
        case let array as [Any]:
            var items: [JSONValue] = []
            items.reserveCapacity(array.count)
            for element in array {
                guard let item = JSONValue(foundation: element) else { return nil }
                items.append(item)
            }
            self = .array(items)
        case let dictionary as [String: Any]:
            var members: [String: JSONValue] = [:]
            for (key, element) in dictionary {
                guard let item = JSONValue(foundation: element) else { return nil }
                members[key] = item
            }
            self = .object(members)
        default:
            return nil
        }
    }

    /// The value in the shapes `JSONSerialization` uses (`String`, `NSNumber`, `Bool`, arrays, dictionaries).
    package var foundationValue: Any {
        switch self {
        case .null: return NSNull()
        case .bool(let value): return value
        case .number(let value):
            if value.rounded() == value, abs(value) < 9.0e15 { return Int(value) }
            return value
        case .string(let value): return value
        case .array(let items): return items.map(\.foundationValue)
        case .object(let members): return members.mapValues(\.foundationValue)
        }
    }

    package var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    package var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    package subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }

    /// Compact JSON text with sorted keys (stable for logs, golden files and the wire).
    package func serialized() -> String {
        String(decoding: serializedData(), as: UTF8.self)
    }

    package func serializedData() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)) ?? Data("null".utf8)
    }
}

extension JSONValue: Codable {
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode([String: JSONValue].self) {
            self = .object(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON value")
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .number(let value):
            if value.rounded() == value, abs(value) < 9.0e15 { try container.encode(Int64(value)) } else { try container.encode(value) }
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

/// True when the number is a Boolean (`true`/`false`) rather than a numeric value.
private func isBoolean(_ number: NSNumber) -> Bool {
    // JSONSerialization hands back booleans as NSNumbers whose objCType is "c" (measured on this
    // toolchain: `true` → __NSCFBoolean "c", `1` → NSNumber "i"); a Swift `Bool` bridges the same way.
    let type = String(cString: number.objCType)
    return type == "c" || type == "B"
}
