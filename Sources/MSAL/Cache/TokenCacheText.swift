import Foundation

/// The bytes of one token cache file and what one pass over them found (issue 13).
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
    static func parse(_ bytes: [UInt8], sectionNames: Set<String>) throws(TokenCacheSyntaxError) -> Parsed {
        guard bytes.count < Int(UInt32.max) else { throw TokenCacheSyntaxError("the file is larger than 4 GiB", at: 0) }
        typealias Section = (name: String, entries: [(key: String, entry: RawEntry)])
        typealias Found = (sections: [Section], others: [(name: String, range: Range<Int>)], fields: [RawField])
        // Plain loops rather than closures: a closure's captured arrays pay a dynamic exclusivity
        // check on every append (measured: a tenth of the parse).
        let found: Found = try bytes.withUnsafeBufferPointer { (buffer) throws(TokenCacheSyntaxError) -> Found in
            guard UTF8Check.isValid(buffer) else { throw TokenCacheSyntaxError("the file is not valid UTF-8", at: 0) }
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
                                throw TokenCacheSyntaxError("the entry '\(name)/\(key)' is not a JSON object", at: scanner.position)
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
            guard scanner.atEnd else { throw TokenCacheSyntaxError("text after the JSON object", at: scanner.position) }
            return (sections, others, fields)
        }
        return Parsed(text: TokenCacheText(bytes: bytes, fields: found.fields), sections: found.sections, otherMembers: found.others)
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

/// Why cache text could not be parsed, with the byte offset.
package struct TokenCacheSyntaxError: Error, Sendable {
    package let message: String
    package let offset: Int
    init(_ message: String, at offset: Int) {
        self.message = message
        self.offset = offset
    }
}

// MARK: - Scanning

/// A JSON scanner over UTF-8 bytes that records where things are rather than building values.
struct JSONScanner {
    private let buffer: UnsafeBufferPointer<UInt8>
    private(set) var position: Int
    static let maxDepth = 512

    init(_ buffer: UnsafeBufferPointer<UInt8>, from position: Int = 0) {
        self.buffer = buffer
        self.position = position
    }

    var atEnd: Bool { position >= buffer.count }
    var peek: UInt8? { position < buffer.count ? buffer[position] : nil }

    mutating func skipWhitespace() {
        while position < buffer.count {
            switch buffer[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    private func fail(_ message: String) -> TokenCacheSyntaxError { TokenCacheSyntaxError(message, at: position) }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(TokenCacheSyntaxError) {
        skipWhitespace()
        guard position < buffer.count, buffer[position] == byte else { throw fail("expected \(what)") }
        position += 1
    }

    /// Consumes an object's `{`; false when the object is empty (its `}` consumed too).
    mutating func enterObject() throws(TokenCacheSyntaxError) -> Bool {
        try expect(UInt8(ascii: "{"), "an object")
        skipWhitespace()
        guard peek == UInt8(ascii: "}") else { return true }
        position += 1
        return false
    }

    /// Reads a member's name and its `:`, leaving the position at the value.
    mutating func memberName() throws(TokenCacheSyntaxError) -> String {
        skipWhitespace()
        let name = try scanString()
        let key =
            name.escaped
            ? Self.decodeString(buffer, name.range) ?? ""
            : String(decoding: UnsafeBufferPointer(rebasing: buffer[name.range]), as: UTF8.self)
        try expect(UInt8(ascii: ":"), "':'")
        skipWhitespace()
        return key
    }

    /// After a member's value: true at `,` (another member follows), false at the closing `}`.
    mutating func nextMember() throws(TokenCacheSyntaxError) -> Bool {
        skipWhitespace()
        guard position < buffer.count else { throw fail("unterminated object") }
        let next = buffer[position]
        position += 1
        if next == UInt8(ascii: "}") { return false }
        guard next == UInt8(ascii: ",") else { throw fail("expected ',' or '}'") }
        return true
    }

    /// Calls `body` for each member of the object at the current position, positioned at the
    /// member's value (which `body` must consume), with the member's name.
    mutating func members(_ body: (inout JSONScanner, String) throws(TokenCacheSyntaxError) -> Void) throws(TokenCacheSyntaxError) {
        guard try enterObject() else { return }
        repeat {
            let name = try memberName()
            try body(&self, name)
        } while try nextMember()
    }

    /// Scans an entry object, appending one record per field.
    mutating func fields(into table: inout [TokenCacheText.RawField]) throws(TokenCacheSyntaxError) {
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

    /// Consumes an array's `[`; false when the array is empty (its `]` consumed too).
    private mutating func enterArray() -> Bool {
        position += 1
        skipWhitespace()
        guard peek == UInt8(ascii: "]") else { return true }
        position += 1
        return false
    }

    /// After an element: true at `,` (another follows), false at the closing `]`.
    private mutating func nextElement() throws(TokenCacheSyntaxError) -> Bool {
        skipWhitespace()
        guard position < buffer.count else { throw fail("unterminated array") }
        let next = buffer[position]
        position += 1
        if next == UInt8(ascii: "]") { return false }
        guard next == UInt8(ascii: ",") else { throw fail("expected ',' or ']'") }
        return true
    }

    /// Scans a string at the current position; returns its contents' range (quotes excluded).
    /// Finds the closing quote with `memchr`, so long secrets cost little more than a copy.
    mutating func scanString() throws(TokenCacheSyntaxError) -> (range: Range<Int>, escaped: Bool) {
        guard position < buffer.count, buffer[position] == UInt8(ascii: "\"") else { throw fail("expected a string") }
        let start = position + 1
        let base = buffer.baseAddress!
        var search = start
        var escaped = false
        while true {
            guard search < buffer.count, let found = memchr(base + search, 0x22, buffer.count - search) else {
                throw TokenCacheSyntaxError("unterminated string", at: start - 1)
            }
            let quote = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
            // The quote is escaped when an odd number of backslashes precede it.
            var backslashes = 0
            while quote - backslashes - 1 >= start, buffer[quote - backslashes - 1] == UInt8(ascii: "\\") { backslashes += 1 }
            if backslashes % 2 == 1 {
                search = quote + 1
                continue
            }
            if !escaped, memchr(base + start, 0x5C, quote - start) != nil { escaped = true }
            position = quote + 1
            // Escapes and control characters are checked now, so that a value kept as text is valid JSON.
            let valid = escaped ? Self.isValidStringText(buffer, start..<quote) : !Self.hasControlCharacter(buffer, start..<quote)
            guard valid else { throw TokenCacheSyntaxError("invalid string", at: start - 1) }
            return (start..<quote, escaped)
        }
    }

    private static func hasControlCharacter(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        // Eight bytes at a time: a byte below 0x20 has a zero top three bits.
        var index = range.lowerBound
        let base = UnsafeRawPointer(buffer.baseAddress!)
        while index + 8 <= range.upperBound {
            let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            // (x - 0x20…) & ~x & 0x80… flags bytes below 0x20 (bytes ≥ 0x80 are never flagged falsely here
            // because ~x clears their top bit).
            if (word &- 0x2020_2020_2020_2020) & ~word & 0x8080_8080_8080_8080 != 0 { return true }
            index += 8
        }
        while index < range.upperBound {
            if buffer[index] < 0x20 { return true }
            index += 1
        }
        return false
    }

    /// Skips any JSON value, checking its grammar.
    mutating func skipValue(depth: Int) throws(TokenCacheSyntaxError) {
        guard depth <= Self.maxDepth else { throw fail("nesting deeper than \(Self.maxDepth)") }
        skipWhitespace()
        guard let first = peek else { throw fail("expected a value") }
        switch first {
        case UInt8(ascii: "\""):
            _ = try scanString()
        case UInt8(ascii: "{"):
            try members { (scanner, _) throws(TokenCacheSyntaxError) in try scanner.skipValue(depth: depth + 1) }
        case UInt8(ascii: "["):
            guard enterArray() else { return }
            repeat { try skipValue(depth: depth + 1) } while try nextElement()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default: _ = try number()
        }
    }

    private mutating func literal(_ word: StaticString) throws(TokenCacheSyntaxError) {
        let count = word.utf8CodeUnitCount
        guard position + count <= buffer.count, memcmp(buffer.baseAddress! + position, word.utf8Start, count) == 0 else {
            throw fail("invalid literal")
        }
        position += count
    }

    /// Scans a number by JSON's grammar; returns its text's range.
    private mutating func number() throws(TokenCacheSyntaxError) -> Range<Int> {
        let start = position
        func digits(_ scanner: inout JSONScanner) -> Int {
            let from = scanner.position
            while let byte = scanner.peek, byte >= 0x30, byte <= 0x39 { scanner.position += 1 }
            return scanner.position - from
        }
        if peek == UInt8(ascii: "-") { position += 1 }
        if peek == UInt8(ascii: "0") {
            position += 1
        } else if digits(&self) == 0 {
            throw fail("expected a value")
        }
        if peek == UInt8(ascii: ".") {
            position += 1
            guard digits(&self) > 0 else { throw fail("invalid number") }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            position += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { position += 1 }
            guard digits(&self) > 0 else { throw fail("invalid number") }
        }
        return start..<position
    }

    /// Decodes the value at the current position into a `JSONValue`.
    mutating func decodeValue(depth: Int) throws(TokenCacheSyntaxError) -> JSONValue {
        guard depth <= Self.maxDepth else { throw fail("nesting deeper than \(Self.maxDepth)") }
        skipWhitespace()
        guard let first = peek else { throw fail("expected a value") }
        switch first {
        case UInt8(ascii: "\""):
            let scanned = try scanString()
            guard let string = Self.decodeString(buffer, scanned.range) else { throw fail("invalid string") }
            return .string(string)
        case UInt8(ascii: "{"):
            var members: [String: JSONValue] = [:]
            try self.members { (scanner, name) throws(TokenCacheSyntaxError) in members[name] = try scanner.decodeValue(depth: depth + 1) }
            return .object(members)
        case UInt8(ascii: "["):
            var items: [JSONValue] = []
            guard enterArray() else { return .array(items) }
            repeat { items.append(try decodeValue(depth: depth + 1)) } while try nextElement()
            return .array(items)
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        default:
            let range = try number()
            guard let value = Double(String(decoding: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self)) else {
                throw fail("invalid number")
            }
            return .number(value)
        }
    }

    /// Whether a string's contents are valid JSON text (escapes and no raw control character),
    /// without building the string.
    static func isValidStringText(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        var unused: [UInt8] = []
        return decode(buffer, range, into: &unused, building: false)
    }

    /// Decodes a string's contents (quotes excluded); nil on an invalid escape or a raw control character.
    static func decodeString(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(range.count)
        guard decode(buffer, range, into: &out, building: true) else { return nil }
        return String(decoding: out, as: UTF8.self)
    }

    /// Checks a string's contents and, when `building`, appends its decoded UTF-8 to `out`. Runs
    /// between backslashes are found with `memchr` and checked eight bytes at a time.
    private static func decode(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into out: inout [UInt8], building: Bool) -> Bool {
        let base = buffer.baseAddress!
        func hex4(_ at: Int) -> UInt32? {
            guard at + 4 <= range.upperBound else { return nil }
            var value: UInt32 = 0
            for byte in buffer[at..<at + 4] {
                let digit: UInt8
                switch byte {
                case 0x30...0x39: digit = byte - 0x30
                case 0x41...0x46: digit = byte - 0x37
                case 0x61...0x66: digit = byte - 0x57
                default: return nil
                }
                value = value << 4 | UInt32(digit)
            }
            return value
        }
        var index = range.lowerBound
        while index < range.upperBound {
            let backslash = memchr(base + index, 0x5C, range.upperBound - index).map {
                UnsafePointer<UInt8>($0.assumingMemoryBound(to: UInt8.self)) - base
            }
            let runEnd = backslash ?? range.upperBound
            if hasControlCharacter(buffer, index..<runEnd) { return false }
            if building { out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[index..<runEnd])) }
            guard let backslash else { return true }
            guard backslash + 1 < range.upperBound else { return false }
            index = backslash + 2
            let simple: UInt8
            switch buffer[backslash + 1] {
            case UInt8(ascii: "\""): simple = 0x22
            case UInt8(ascii: "\\"): simple = 0x5C
            case UInt8(ascii: "/"): simple = 0x2F
            case UInt8(ascii: "b"): simple = 0x08
            case UInt8(ascii: "f"): simple = 0x0C
            case UInt8(ascii: "n"): simple = 0x0A
            case UInt8(ascii: "r"): simple = 0x0D
            case UInt8(ascii: "t"): simple = 0x09
            case UInt8(ascii: "u"):
                guard var scalar = hex4(index) else { return false }
                index += 4
                if (0xD800..<0xDC00).contains(scalar) {
                    // A high surrogate must be followed by an escaped low one.
                    guard index + 1 < range.upperBound, buffer[index] == UInt8(ascii: "\\"), buffer[index + 1] == UInt8(ascii: "u"),
                        let low = hex4(index + 2), (0xDC00..<0xE000).contains(low)
                    else { return false }
                    index += 6
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(scalar) {
                    return false
                }
                guard let unicode = Unicode.Scalar(scalar) else { return false }
                if building { out.append(contentsOf: UTF8.encode(unicode)!) }
                continue
            default:
                return false
            }
            if building { out.append(simple) }
        }
        return true
    }
}

// MARK: - UTF-8

enum UTF8Check {
    /// Whether the bytes are well-formed UTF-8 (RFC 3629: no overlongs, no surrogates, ≤ U+10FFFF).
    /// ASCII, almost all of a cache, goes eight bytes at a time.
    static func isValid(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = buffer.count
        let base = UnsafeRawPointer(buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!)
        var index = 0
        while index < count {
            if index + 8 <= count, base.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                index += 8
                continue
            }
            let lead = buffer[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                high = 0x9F
            case 0xF0:
                length = 4
                low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                high = 0x8F
            default: return false
            }
            guard index + length <= count else { return false }
            let second = buffer[index + 1]
            guard second >= low, second <= high else { return false }
            for offset in 2..<max(2, length) where buffer[index + offset] & 0xC0 != 0x80 { return false }
            index += length
        }
        return true
    }
}
