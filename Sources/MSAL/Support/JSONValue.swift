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
    package static func parse(_ data: Data) -> JSONValue? {
        guard let any = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            return nil
        }
        return JSONValue(foundation: any)
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
        let data = (try? JSONSerialization.data(
            withJSONObject: foundationValue, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes]
        )) ?? Data("null".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

/// True when the number is a Boolean (`true`/`false`) rather than a numeric value.
private func isBoolean(_ number: NSNumber) -> Bool {
    // JSONSerialization hands back booleans as NSNumbers whose objCType is "c" (measured on this
    // toolchain: `true` → __NSCFBoolean "c", `1` → NSNumber "i"); a Swift `Bool` bridges the same way.
    let type = String(cString: number.objCType)
    return type == "c" || type == "B"
}
