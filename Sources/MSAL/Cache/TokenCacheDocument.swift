import Foundation

/// The unified MSAL token cache as one JSON document: sections `AccessToken`, `RefreshToken`,
/// `IdToken`, `Account`, `AppMetadata`, each a map from cache key to entry. Entries read from a
/// file stay as that file's text until changed (`TokenCacheText`), so fields and members this SDK
/// does not know survive a round trip exactly, and loading and saving cost little more than a scan
/// and a copy.
package struct TokenCacheDocument: Sendable {
    package var sections: [String: [String: TokenCacheEntry]] = [:]
    /// Top-level members that are not sections (other libraries' data); written back as they were.
    package var otherMembers: [String: TokenCacheMember] = [:]

    package init() {}

    package enum Section: String, CaseIterable, Sendable {
        case accessToken = "AccessToken"
        case refreshToken = "RefreshToken"
        case idToken = "IdToken"
        case account = "Account"
        case appMetadata = "AppMetadata"
    }

    private static let sectionNames = Set(Section.allCases.map(\.rawValue))

    package subscript(section: Section) -> [String: TokenCacheEntry] {
        get { sections[section.rawValue] ?? [:] }
        // In place: `document[section][key] = entry` must not copy the whole section per entry.
        _modify { yield &sections[section.rawValue, default: [:]] }
    }

    package var isEmpty: Bool { sections.values.allSatisfy(\.isEmpty) && otherMembers.isEmpty }

    /// Parses cache JSON. Empty text is an empty cache; anything that is not a JSON object whose
    /// sections are objects of objects is an error (the caller keeps the file as a backup).
    package init(json data: Data) throws(SetupError) {
        try self.init(bytes: [UInt8](data))
    }

    package init(bytes: [UInt8]) throws(SetupError) {
        let parsed: TokenCacheText.Parsed
        do {
            parsed = try TokenCacheText.parse(bytes, sectionNames: Self.sectionNames)
        } catch {
            throw SetupError(.invalidJSON, "The token cache is not valid: \(error.message) at byte \(error.offset)")
        }
        let text = parsed.text
        for (name, entries) in parsed.sections {
            var section: [String: TokenCacheEntry] = [:]
            section.reserveCapacity(entries.count)
            for (key, entry) in entries { section[key] = TokenCacheEntry(text: text, entry: entry) }
            sections[name] = section
        }
        for (name, range) in parsed.otherMembers { otherMembers[name] = TokenCacheMember(text: text, range: range) }
    }

    /// Compact JSON: members and cache keys in byte order; an entry nobody changed is copied
    /// as the text it was read from, a new or changed one written with its fields in byte order.
    package func serialized() -> Data { Data(serializedBytes()) }

    package func serializedBytes() -> [UInt8] {
        var writer = JSONWriter()
        writer.bytes.reserveCapacity(estimatedSize)
        var names = Set(sections.keys).union(otherMembers.keys)
        for section in Section.allCases { names.insert(section.rawValue) }
        writer.byte(UInt8(ascii: "{"))
        for (index, name) in names.sorted(by: JSONWriter.byteOrder).enumerated() {
            if index > 0 { writer.byte(UInt8(ascii: ",")) }
            writer.string(name)
            writer.byte(UInt8(ascii: ":"))
            if let entries = sections[name] {
                writer.byte(UInt8(ascii: "{"))
                for (position, key) in entries.keys.sorted(by: JSONWriter.byteOrder).enumerated() {
                    if position > 0 { writer.byte(UInt8(ascii: ",")) }
                    writer.string(key)
                    writer.byte(UInt8(ascii: ":"))
                    entries[key]!.write(to: &writer)
                }
                writer.byte(UInt8(ascii: "}"))
            } else if let member = otherMembers[name] {
                member.write(to: &writer)
            } else {
                writer.bytes.append(contentsOf: "{}".utf8)
            }
        }
        writer.byte(UInt8(ascii: "}"))
        return writer.bytes
    }

    /// Bytes of the text the document came from, plus some for changes: one allocation for most saves.
    private var estimatedSize: Int {
        let source = sections.values.lazy.compactMap { $0.first?.value.text?.bytes.count }.first ?? 0
        return source + 4096
    }
}

extension TokenCacheDocument: Equatable {
    /// Same sections (a missing one equals an empty one) with entries of the same fields, same other members.
    package static func == (lhs: TokenCacheDocument, rhs: TokenCacheDocument) -> Bool {
        let names = Set(lhs.sections.keys).union(rhs.sections.keys)
        for name in names where (lhs.sections[name] ?? [:]) != (rhs.sections[name] ?? [:]) { return false }
        return lhs.otherMembers.mapValues(\.value) == rhs.otherMembers.mapValues(\.value)
    }
}

/// One cache entry: a slice of a file's text until it is changed, then its fields.
package struct TokenCacheEntry: Sendable, ExpressibleByDictionaryLiteral {
    private enum Storage: Sendable {
        case text(TokenCacheText, TokenCacheText.RawEntry)
        case fields([String: JSONValue])
    }

    private var storage: Storage

    init(text: TokenCacheText, entry: TokenCacheText.RawEntry) { storage = .text(text, entry) }

    package init(_ fields: [String: JSONValue]) { storage = .fields(fields) }

    package init(dictionaryLiteral elements: (String, JSONValue)...) {
        storage = .fields(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    fileprivate var text: TokenCacheText? {
        if case .text(let text, _) = storage { return text }
        return nil
    }

    /// Every field, decoded.
    package var fields: [String: JSONValue] {
        switch storage {
        case .text(let text, let entry): return text.decodedFields(of: entry)
        case .fields(let fields): return fields
        }
    }

    package subscript(key: String) -> JSONValue? {
        get {
            switch storage {
            case .text(let text, let entry): return text.field(key, in: entry).flatMap(text.value(at:))
            case .fields(let fields): return fields[key]
            }
        }
        set {
            var changed: [String: JSONValue]
            if case .fields(let fields) = storage {
                changed = fields
                storage = .fields([:]) // drop the old reference so the change below does not copy
            } else {
                changed = fields
            }
            changed[key] = newValue
            storage = .fields(changed)
        }
    }

    package mutating func removeValue(forKey key: String) { self[key] = nil }

    /// The field's value when it is a string.
    package func string(_ key: String) -> String? {
        switch storage {
        case .text(let text, let entry): return text.field(key, in: entry).flatMap(text.string(at:))
        case .fields(let fields): return fields[key]?.stringValue
        }
    }

    /// Whether the field is there and a string (without decoding it).
    package func hasString(_ key: String) -> Bool {
        switch storage {
        case .text(let text, let entry): return text.field(key, in: entry).map { text.fields[$0].isString } ?? false
        case .fields(let fields): return fields[key]?.stringValue != nil
        }
    }

    /// Whether the field is the string `value`, ignoring ASCII case (cache keys' fields are
    /// compared as MSAL does, case-insensitively); compares the file's bytes without copying.
    package func string(_ key: String, equalsIgnoringCase value: String) -> Bool {
        switch storage {
        case .text(let text, let entry):
            guard let index = text.field(key, in: entry) else { return false }
            return text.stringEquals(at: index, value, ignoringASCIICase: true)
        case .fields(let fields):
            return fields[key]?.stringValue?.lowercased() == value.lowercased()
        }
    }

    /// A time stored as a string of epoch seconds (the schema) or, leniently, as a number.
    package func epochSeconds(_ key: String) -> Double? {
        switch self[key] {
        case .string(let text)?: return Double(text)
        case .number(let number)?: return number
        default: return nil
        }
    }

    fileprivate func write(to writer: inout JSONWriter) {
        switch storage {
        case .text(let text, let entry): writer.copy(text.bytes, entry.start..<entry.end)
        case .fields(let fields): writer.value(.object(fields))
        }
    }
}

extension TokenCacheEntry {
    /// The bytes the text it was read from holds in the heap (0 for an entry the SDK made).
    var textHeapBytes: Int { text?.heapBytes ?? 0 }

    /// The entry alone as compact JSON, as the document writes it (an entry store's value).
    package var jsonBytes: [UInt8] {
        var writer = JSONWriter()
        write(to: &writer)
        return writer.bytes
    }
}

extension TokenCacheEntry: Equatable {
    package static func == (lhs: TokenCacheEntry, rhs: TokenCacheEntry) -> Bool {
        if case .text(let a, let first) = lhs.storage, case .text(let b, let second) = rhs.storage, a === b, first.start == second.start {
            return true
        }
        return lhs.fields == rhs.fields
    }
}

/// A top-level member that is not a section: the file's text, or a value set by the SDK.
package struct TokenCacheMember: Sendable {
    private let text: TokenCacheText?
    private let range: Range<Int>
    private let decoded: JSONValue?

    init(text: TokenCacheText, range: Range<Int>) {
        self.text = text
        self.range = range
        decoded = nil
    }

    package init(_ value: JSONValue) {
        text = nil
        range = 0..<0
        decoded = value
    }

    package var value: JSONValue { decoded ?? text?.decodeValue(range) ?? .null }

    fileprivate func write(to writer: inout JSONWriter) {
        if let text { writer.copy(text.bytes, range) } else { writer.value(value) }
    }
}

/// Compact JSON output into a byte array.
struct JSONWriter {
    var bytes: [UInt8] = []

    /// Byte order of the UTF-8 text: the order `sort_keys` gives in MSAL's other libraries for ASCII keys.
    static func byteOrder(_ lhs: String, _ rhs: String) -> Bool {
        var lhs = lhs
        var rhs = rhs
        return lhs.withUTF8 { a in
            rhs.withUTF8 { b in
                let common = min(a.count, b.count)
                let order = common == 0 ? 0 : memcmp(a.baseAddress!, b.baseAddress!, common)
                return order != 0 ? order < 0 : a.count < b.count
            }
        }
    }

    mutating func byte(_ byte: UInt8) { bytes.append(byte) }

    mutating func copy(_ source: [UInt8], _ range: Range<Int>) {
        source.withUnsafeBufferPointer { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// A JSON string: `"` and `\\` escaped, control characters as `\n`-style or `\u00XX` escapes,
    /// everything else (`/` and non-ASCII included) as it is.
    mutating func string(_ value: String) {
        var value = value
        bytes.append(0x22)
        value.withUTF8 { utf8 in
            var clean = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[clean..<index]))
                switch byte {
                case 0x22: bytes.append(contentsOf: [0x5C, 0x22])
                case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
                case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
                case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
                case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
                case 0x08: bytes.append(contentsOf: [0x5C, UInt8(ascii: "b")])
                case 0x0C: bytes.append(contentsOf: [0x5C, UInt8(ascii: "f")])
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                }
                clean = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[clean...]))
        }
        bytes.append(0x22)
    }

    mutating func value(_ value: JSONValue) {
        switch value {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let flag): bytes.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let number):
            if !number.isFinite {
                bytes.append(contentsOf: "null".utf8)
            } else if number.rounded() == number, abs(number) < 9.0e15 {
                bytes.append(contentsOf: String(Int64(number)).utf8)
            } else {
                bytes.append(contentsOf: "\(number)".utf8)
            }
        case .string(let string): self.string(string)
        case .array(let items):
            bytes.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                self.value(item)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted(by: Self.byteOrder).enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                string(key)
                bytes.append(UInt8(ascii: ":"))
                self.value(members[key]!)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }
}

/// Cache keys exactly as MSAL's other libraries write them (lower-cased, `-`-joined).
package enum TokenCacheKey {
    package static func accessToken(homeAccountId: String, environment: String, clientId: String, realm: String, target: String) -> String {
        [homeAccountId, environment, "accesstoken", clientId, realm, target].joined(separator: "-").lowercased()
    }

    package static func refreshToken(homeAccountId: String, environment: String, clientId: String) -> String {
        [homeAccountId, environment, "refreshtoken", clientId, "", ""].joined(separator: "-").lowercased()
    }

    package static func idToken(homeAccountId: String, environment: String, clientId: String, realm: String) -> String {
        [homeAccountId, environment, "idtoken", clientId, realm, ""].joined(separator: "-").lowercased()
    }

    package static func account(homeAccountId: String, environment: String, realm: String) -> String {
        [homeAccountId, environment, realm].joined(separator: "-").lowercased()
    }

    package static func appMetadata(environment: String, clientId: String) -> String {
        "appmetadata-\(environment)-\(clientId)"
    }

    /// `target`: scopes sorted case-sensitively and joined with spaces.
    package static func target(_ scopes: [String]) -> String {
        Array(Set(scopes)).sorted().joined(separator: " ")
    }
}

extension Dictionary where Key == String, Value == JSONValue {
    package func string(_ key: String) -> String? { self[key]?.stringValue }

    /// A time stored as a string of epoch seconds (the schema) or, leniently, as a number.
    package func epochSeconds(_ key: String) -> Double? {
        switch self[key] {
        case .string(let text)?: return Double(text)
        case .number(let number)?: return number
        default: return nil
        }
    }
}
