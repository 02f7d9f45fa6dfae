import Foundation

/// The bytes of one token cache file and what one pass over them found.
///
/// The unified schema is a JSON object of sections, each an object of entries, each an object of
/// fields. Parsing records, for every entry, where its text and its fields lie in the bytes, and
/// decodes nothing else: a field becomes a `String` when somebody asks for it, and an entry nobody
/// changed is written back as the very bytes it was read from. That keeps fields and sections
/// written by other MSAL libraries exactly as they were, and makes load and save mostly a scan
/// and a copy.
///
/// Immutable once built, so the entries of a document share it across threads.
package final class TokenCacheText: Sendable {
    package let bytes: [UInt8]
    /// Every entry's fields, entry after entry (`RawEntry.fields` is a range of this table).
    let fields: [RawField]

    struct RawField: Sendable {
        /// The key's text, without quotes.
        var keyStart: UInt32
        var keyEnd: UInt32
        /// The value's text; for a string, without quotes.
        var valueStart: UInt32
        var valueEnd: UInt32
        var isString: Bool
        /// The key or the string value holds a backslash escape: decode, do not copy.
        var keyEscaped: Bool
        var valueEscaped: Bool
    }

    struct RawEntry: Sendable {
        /// The entry's object text, braces included.
        var start: Int
        var end: Int
        var fields: Range<Int>
    }

    private init(bytes: [UInt8], fields: [RawField]) {
        self.bytes = bytes
        self.fields = fields
    }

    /// What parsing found: the sections' entries (by cache key, in file order) and the other
    /// top-level members as text.
    struct Parsed {
        var text: TokenCacheText
        var sections: [(name: String, entries: [(key: String, entry: RawEntry)])]
        var otherMembers: [(name: String, range: Range<Int>)]
    }

    /// Parses cache JSON. `sectionNames` are the members whose values are objects of entries;
    /// every other member is kept as text. Throws on anything that is not JSON, on a section
    /// that is not an object of objects, on invalid UTF-8 and on nesting deeper than 512.
    static func parse(_ bytes: [UInt8], sectionNames: Set<String>) throws(JSONSyntaxError) -> Parsed {
        guard bytes.count < Int(UInt32.max) else { throw JSONSyntaxError("the file is larger than 4 GiB", at: 0) }
        typealias Section = (name: String, entries: [(key: String, entry: RawEntry)])
        typealias Found = (sections: [Section], others: [(name: String, range: Range<Int>)], fields: [RawField])
        // Plain loops rather than closures: a closure's captured arrays pay a dynamic exclusivity
        // check on every append (measured: a tenth of the parse).
        let found: Found = try bytes.withUnsafeBufferPointer { (buffer) throws(JSONSyntaxError) -> Found in
            guard UTF8Check.isValid(buffer) else { throw JSONSyntaxError("the file is not valid UTF-8", at: 0) }
            // A UTF-8 byte order mark (an editor may add one) is skipped, as Foundation's reader does.
            let bom = buffer.count >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF
            var scanner = JSONScanner(buffer, from: bom ? 3 : 0)
            var sections: [Section] = []
            var others: [(name: String, range: Range<Int>)] = []
            var fields: [RawField] = []
            // One field per 16 bytes is more than any cache has: the table never grows (growing
            // copies it), and the pages of the room left unused are never resident.
            fields.reserveCapacity(buffer.count / 16)
            scanner.skipWhitespace()
            if scanner.atEnd { return ([], [], []) } // an empty file is an empty cache
            if try scanner.enterObject() {
                repeat {
                    let name = try scanner.memberName()
                    guard sectionNames.contains(name), scanner.peek == UInt8(ascii: "{") else {
                        let start = scanner.position
                        try scanner.skipValue(depth: 1)
                        others.append((name, start..<scanner.position))
                        continue
                    }
                    var entries: [(key: String, entry: RawEntry)] = []
                    if try scanner.enterObject() {
                        repeat {
                            let key = try scanner.memberName()
                            guard scanner.peek == UInt8(ascii: "{") else {
                                throw JSONSyntaxError("the entry '\(name)/\(key)' is not a JSON object", at: scanner.position)
                            }
                            let start = scanner.position
                            let first = fields.count
                            try scanner.fields(into: &fields)
                            entries.append((key, RawEntry(start: start, end: scanner.position, fields: first..<fields.count)))
                        } while try scanner.nextMember()
                    }
                    sections.append((name, entries))
                } while try scanner.nextMember()
            }
            scanner.skipWhitespace()
            guard scanner.atEnd else { throw JSONSyntaxError("text after the JSON object", at: scanner.position) }
            return (sections, others, fields)
        }
        // A small text's table is held in the heap, room left unused included (an entry store holds
        // one text per entry): trimmed to what it holds. A large one's unused pages are never resident.
        let fields = bytes.count < Self.trimmedBelow ? Array(found.fields[...]) : found.fields
        return Parsed(text: TokenCacheText(bytes: bytes, fields: fields), sections: found.sections, otherMembers: found.others)
    }

    /// Texts smaller than this keep a field table of their own size (`parse`).
    static let trimmedBelow = 64 << 10

    /// What the text holds in the heap: its bytes and its field table with the room reserved, and
    /// the three allocations' headers (this object's and the two arrays').
    var heapBytes: Int {
        bytes.capacity + fields.capacity * MemoryLayout<RawField>.stride + 3 * 32
    }

    // MARK: Reading fields

    /// The index in `fields` of the entry's last field named `key` (JSON's last one wins).
    func field(_ key: String, in entry: RawEntry) -> Int? {
        var key = key
        return key.withUTF8 { wanted in
            bytes.withUnsafeBufferPointer { buffer in
                var index = entry.fields.upperBound
                while index > entry.fields.lowerBound {
                    index -= 1
                    let field = fields[index]
                    let start = Int(field.keyStart)
                    let count = Int(field.keyEnd) - start
                    if field.keyEscaped {
                        if let decoded = JSONScanner.decodeString(buffer, start..<start + count), decoded.utf8.elementsEqual(wanted) {
                            return index
                        }
                    } else if count == wanted.count, count == 0 || memcmp(wanted.baseAddress!, buffer.baseAddress! + start, count) == 0 {
                        return index
                    }
                }
                return nil
            }
        }
    }

    func key(of index: Int) -> String {
        let field = fields[index]
        return bytes.withUnsafeBufferPointer { buffer in
            let range = Int(field.keyStart)..<Int(field.keyEnd)
            return field.keyEscaped ? JSONScanner.decodeString(buffer, range) ?? "" : String(decoding: buffer[range], as: UTF8.self)
        }
    }

    /// The field's value when it is a string.
    func string(at index: Int) -> String? {
        let field = fields[index]
        guard field.isString else { return nil }
        return bytes.withUnsafeBufferPointer { buffer in
            let range = Int(field.valueStart)..<Int(field.valueEnd)
            return field.valueEscaped ? JSONScanner.decodeString(buffer, range) : String(decoding: buffer[range], as: UTF8.self)
        }
    }

    /// Whether the field is a string equal to `value` (compared byte for byte, no `String` made).
    func stringEquals(at index: Int, _ value: String, ignoringASCIICase: Bool) -> Bool {
        let field = fields[index]
        guard field.isString else { return false }
        if field.valueEscaped {
            guard let decoded = string(at: index) else { return false }
            return ignoringASCIICase ? decoded.lowercased() == value.lowercased() : decoded == value
        }
        var value = value
        return value.withUTF8 { wanted in
            bytes.withUnsafeBufferPointer { buffer in
                let start = Int(field.valueStart)
                guard Int(field.valueEnd) - start == wanted.count else { return false }
                for offset in 0..<wanted.count {
                    var a = buffer[start + offset]
                    var b = wanted[offset]
                    if ignoringASCIICase {
                        if a >= 0x41 && a <= 0x5A { a |= 0x20 }
                        if b >= 0x41 && b <= 0x5A { b |= 0x20 }
                    }
                    if a != b { return false }
                }
                return true
            }
        }
    }

    /// The field's value as a JSON value.
    func value(at index: Int) -> JSONValue? {
        let field = fields[index]
        if field.isString { return string(at: index).map(JSONValue.string) }
        return bytes.withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(buffer, from: Int(field.valueStart))
            return try? scanner.decodeValue(depth: 1)
        }
    }

    /// Every field of the entry as JSON values (last one wins for a repeated key).
    func decodedFields(of entry: RawEntry) -> [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        result.reserveCapacity(entry.fields.count)
        for index in entry.fields {
            result[key(of: index)] = value(at: index) ?? .null
        }
        return result
    }

    /// A member's text decoded as a JSON value.
    func decodeValue(_ range: Range<Int>) -> JSONValue? {
        bytes.withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(UnsafeBufferPointer(rebasing: buffer[..<range.upperBound]), from: range.lowerBound)
            return try? scanner.decodeValue(depth: 1)
        }
    }
}

extension JSONScanner {
    /// Scans an entry object, appending one record per field.
    mutating func fields(into table: inout [TokenCacheText.RawField]) throws(JSONSyntaxError) {
        guard try enterObject() else { return }
        repeat {
            skipWhitespace()
            let key = try scanString()
            try expect(UInt8(ascii: ":"), "':'")
            skipWhitespace()
            var field = TokenCacheText.RawField(
                keyStart: UInt32(key.range.lowerBound), keyEnd: UInt32(key.range.upperBound), valueStart: 0, valueEnd: 0,
                isString: false, keyEscaped: key.escaped, valueEscaped: false)
            if peek == UInt8(ascii: "\"") {
                let value = try scanString()
                field.valueStart = UInt32(value.range.lowerBound)
                field.valueEnd = UInt32(value.range.upperBound)
                field.isString = true
                field.valueEscaped = value.escaped
            } else {
                field.valueStart = UInt32(position)
                try skipValue(depth: 2)
                field.valueEnd = UInt32(position)
            }
            table.append(field)
        } while try nextMember()
    }
}
