import Foundation

/// Why JSON text could not be scanned, with the byte offset.
package struct JSONSyntaxError: Error, Sendable {
    package let message: String
    package let offset: Int
    init(_ message: String, at offset: Int) {
        self.message = message
        self.offset = offset
    }
}

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

    private func fail(_ message: String) -> JSONSyntaxError { JSONSyntaxError(message, at: position) }

    mutating func expect(_ byte: UInt8, _ what: String) throws(JSONSyntaxError) {
        skipWhitespace()
        guard position < buffer.count, buffer[position] == byte else { throw fail("expected \(what)") }
        position += 1
    }

    /// Consumes an object's `{`; false when the object is empty (its `}` consumed too).
    mutating func enterObject() throws(JSONSyntaxError) -> Bool {
        try expect(UInt8(ascii: "{"), "an object")
        skipWhitespace()
        guard peek == UInt8(ascii: "}") else { return true }
        position += 1
        return false
    }

    /// Reads a member's name and its `:`, leaving the position at the value.
    mutating func memberName() throws(JSONSyntaxError) -> String {
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
    mutating func nextMember() throws(JSONSyntaxError) -> Bool {
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
    mutating func members(_ body: (inout JSONScanner, String) throws(JSONSyntaxError) -> Void) throws(JSONSyntaxError) {
        guard try enterObject() else { return }
        repeat {
            let name = try memberName()
            try body(&self, name)
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
    private mutating func nextElement() throws(JSONSyntaxError) -> Bool {
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
    mutating func scanString() throws(JSONSyntaxError) -> (range: Range<Int>, escaped: Bool) {
        guard position < buffer.count, buffer[position] == UInt8(ascii: "\"") else { throw fail("expected a string") }
        let start = position + 1
        let base = buffer.baseAddress!
        var search = start
        var escaped = false
        while true {
            guard search < buffer.count, let found = memchr(base + search, 0x22, buffer.count - search) else {
                throw JSONSyntaxError("unterminated string", at: start - 1)
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
            guard valid else { throw JSONSyntaxError("invalid string", at: start - 1) }
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
    mutating func skipValue(depth: Int) throws(JSONSyntaxError) {
        guard depth <= Self.maxDepth else { throw fail("nesting deeper than \(Self.maxDepth)") }
        skipWhitespace()
        guard let first = peek else { throw fail("expected a value") }
        switch first {
        case UInt8(ascii: "\""):
            _ = try scanString()
        case UInt8(ascii: "{"):
            try members { (scanner, _) throws(JSONSyntaxError) in try scanner.skipValue(depth: depth + 1) }
        case UInt8(ascii: "["):
            guard enterArray() else { return }
            repeat { try skipValue(depth: depth + 1) } while try nextElement()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default: _ = try number()
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let count = word.utf8CodeUnitCount
        guard position + count <= buffer.count, memcmp(buffer.baseAddress! + position, word.utf8Start, count) == 0 else {
            throw fail("invalid literal")
        }
        position += count
    }

    /// Scans a number by JSON's grammar; returns its text's range.
    private mutating func number() throws(JSONSyntaxError) -> Range<Int> {
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

    /// Decodes the value at the current position into a `JSONValue`. `strict` also refuses what
    /// Foundation's `JSONDecoder` reads otherwise or may refuse (a member name given twice; a number
    /// with an exponent, or beyond a `Double`'s normal range), so that `JSONValue.parse` can leave
    /// those to it.
    mutating func decodeValue(depth: Int, strict: Bool = false) throws(JSONSyntaxError) -> JSONValue {
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
            try self.members { (scanner, name) throws(JSONSyntaxError) in
                let value = try scanner.decodeValue(depth: depth + 1, strict: strict)
                if strict, members[name] != nil { throw JSONSyntaxError("member '\(name)' given twice", at: scanner.position) }
                members[name] = value
            }
            return .object(members)
        case UInt8(ascii: "["):
            var items: [JSONValue] = []
            guard enterArray() else { return .array(items) }
            repeat { items.append(try decodeValue(depth: depth + 1, strict: strict)) } while try nextElement()
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
            if strict,
                hasExponent(range) || !value.isFinite
                    || value.magnitude < Double.leastNormalMagnitude && (value != 0 || hasNonzeroDigit(range))
            {
                throw fail("a number JSONDecoder may read otherwise")
            }
            return .number(value)
        }
    }

    /// Whether a number's digits are not all zero.
    private func hasNonzeroDigit(_ range: Range<Int>) -> Bool {
        buffer[range].contains { (UInt8(ascii: "1")...UInt8(ascii: "9")).contains($0) }
    }

    /// Whether a number has an exponent (`JSONDecoder` refuses some, such as `0e5`).
    private func hasExponent(_ range: Range<Int>) -> Bool {
        buffer[range].contains { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
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
