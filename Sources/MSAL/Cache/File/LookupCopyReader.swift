import Foundation

/// Reads cache text in chunks for the look-up copy: every section but `AccessToken` is copied as it
/// is (then parsed, and checked, as any cache text); each access token is read into a small buffer
/// without its secret's contents, parsed there, and kept as a `LookupAccessToken`. Only the
/// lexical structure is followed here (strings, nesting, member names, and the grammar between
/// access tokens); anything unexpected makes `failed` true, and the caller reads the file the
/// ordinary way, which sets a corrupt file aside. A secret's own text is checked when it is read
/// (`SecretFile.read`): a malformed one is not served, and the next write, which reads the whole
/// file, sets the file aside.
package struct LookupCopyReader {
    /// The cache text without the access tokens (`"AccessToken":{}`).
    package private(set) var output: [UInt8] = []
    package private(set) var tokens: [LookupAccessToken] = []
    package private(set) var failed = false

    /// `{` or `[` for each open container.
    private var stack: [UInt8] = []
    private var expectingKey = false
    /// Between access tokens, what may come next.
    private var between = Between.keyOrEnd
    private enum Between { case keyOrEnd, key, colon, entry, commaOrEnd }
    private var inString = false
    private var stringIsKey = false
    /// The previous chunk ended inside an escape (after the backslash).
    private var pendingEscape = false
    private var key: [UInt8] = []
    /// The top-level member being read, and the access-token field being read.
    private var section: [UInt8] = []
    private var field: [UInt8] = []
    /// The access token being read (its text, the secret's contents left out) and its secret.
    private var entry: [UInt8] = []
    private var secret: SecretFile.Location?
    private var skippingSecret = false
    private var offset = 0
    private var interned: [String: String] = [:]
    private var entryFields: [TokenCacheText.RawField] = []

    private static let accessToken = Array("AccessToken".utf8)
    private static let secretName = Array("secret".utf8)

    package init(capacity: Int) { output.reserveCapacity(capacity) }

    /// `bytes` read in chunks of `size` (tests and the fuzz target: any chunking must read the same).
    package static func reading(_ bytes: [UInt8], chunksOf size: Int) -> LookupCopyReader {
        var reader = LookupCopyReader(capacity: bytes.count)
        bytes.withUnsafeBufferPointer { buffer in
            var start = 0
            while start < buffer.count {
                let end = min(start + max(1, size), buffer.count)
                reader.consume(UnsafeBufferPointer(rebasing: buffer[start..<end]))
                start = end
            }
        }
        return reader
    }

    /// The top-level member being read is `AccessToken` (kept rather than compared at every byte).
    private var sectionIsAccessTokens = false

    /// Inside the `AccessToken` section object (depth 2) or one of its entries (depth 3 and more).
    private var inAccessTokens: Bool { sectionIsAccessTokens && stack.count >= 2 && stack[1] == UInt8(ascii: "{") }

    package mutating func consume(_ chunk: UnsafeBufferPointer<UInt8>) {
        let base = chunk.baseAddress!
        var index = 0
        while index < chunk.count, !failed {
            if inString {
                if pendingEscape {
                    emit(chunk, index..<index + 1)
                    pendingEscape = false
                    index += 1
                    continue
                }
                let quote = memchr(base + index, 0x22, chunk.count - index).map {
                    UnsafePointer<UInt8>($0.assumingMemoryBound(to: UInt8.self)) - base
                }
                let limit = quote ?? chunk.count
                if let backslash = memchr(base + index, 0x5C, limit - index).map({
                    UnsafePointer<UInt8>($0.assumingMemoryBound(to: UInt8.self)) - base
                }) {
                    if skippingSecret { secret?.escaped = true }
                    let end = min(backslash + 2, chunk.count)
                    emit(chunk, index..<end)
                    pendingEscape = backslash + 1 == chunk.count
                    index = end
                    continue
                }
                emit(chunk, index..<limit)
                index = limit
                guard quote != nil else { break }
                closeString(at: offset + index)
                index += 1
                continue
            }
            structure(chunk[index], at: offset + index)
            index += 1
        }
        offset += chunk.count
    }

    /// Everything outside strings: brackets, `:`, `,`, white space, numbers and literals.
    private mutating func structure(_ byte: UInt8, at position: Int) {
        let tokenSection = inAccessTokens
        if tokenSection, stack.count == 2 {
            // Between access tokens: their keys, `:` and `,` are not copied (but their grammar is
            // checked); an entry starts at `{` and must be an object.
            switch (byte, between) {
            case (UInt8(ascii: "\""), .keyOrEnd), (UInt8(ascii: "\""), .key):
                expectingKey = true
                openString(at: position + 1)
                between = .colon
            case (UInt8(ascii: ":"), .colon):
                between = .entry
            case (UInt8(ascii: "{"), .entry):
                stack.append(byte)
                expectingKey = true
                entry.removeAll(keepingCapacity: true)
                entry.append(byte)
                secret = nil
                between = .commaOrEnd
            case (UInt8(ascii: ","), .commaOrEnd):
                between = .key
            case (UInt8(ascii: "}"), .keyOrEnd), (UInt8(ascii: "}"), .commaOrEnd):
                _ = stack.popLast()
                expectingKey = false
                output.append(byte)
            case (0x20, _), (0x0A, _), (0x0D, _), (0x09, _):
                break
            default:
                fail()
            }
            return
        }
        switch byte {
        case UInt8(ascii: "\""):
            openString(at: position + 1)
            return
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            stack.append(byte)
            expectingKey = byte == UInt8(ascii: "{")
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            _ = stack.popLast()
            expectingKey = false
        case UInt8(ascii: ":"):
            expectingKey = false
        case UInt8(ascii: ","):
            expectingKey = stack.last == UInt8(ascii: "{")
        default:
            break
        }
        if tokenSection {
            entry.append(byte)
            if stack.count == 2 { finishEntry() } // the entry's closing brace
        } else {
            output.append(byte)
            if inAccessTokens { between = .keyOrEnd } // the section's opening brace
        }
    }

    private mutating func openString(at contents: Int) {
        inString = true
        stringIsKey = expectingKey
        if stringIsKey { key.removeAll(keepingCapacity: true) }
        if inAccessTokens {
            if stack.count == 2 { return } // a token's cache key: not kept
            entry.append(0x22)
            if !stringIsKey, stack.count == 3, field == Self.secretName {
                skippingSecret = true
                secret = SecretFile.Location(offset: contents, length: 0, escaped: false)
            }
        } else {
            output.append(0x22)
        }
    }

    private mutating func closeString(at end: Int) {
        inString = false
        let tokenSection = inAccessTokens
        if skippingSecret {
            skippingSecret = false
            if let start = secret?.offset { secret?.length = end - start }
        }
        if tokenSection {
            if stack.count > 2 { entry.append(0x22) }
        } else {
            output.append(0x22)
        }
        guard stringIsKey else { return }
        if stack.count == 1 {
            section = key
            sectionIsAccessTokens = section == Self.accessToken
        }
        if stack.count == 3 { field = key }
    }

    /// Copies string text (unless it is a secret's) where it belongs; collects member names.
    private mutating func emit(_ chunk: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        let bytes = UnsafeBufferPointer(rebasing: chunk[range])
        if stringIsKey, stack.count == 1 || stack.count == 3 { key.append(contentsOf: bytes) }
        guard !skippingSecret else { return }
        if inAccessTokens {
            if stack.count > 2 { entry.append(contentsOf: bytes) }
        } else {
            output.append(contentsOf: bytes)
        }
    }

    private mutating func fail() { failed = true }

    /// Parses the access token just read and keeps what the index needs.
    private mutating func finishEntry() {
        entryFields.removeAll(keepingCapacity: true)
        let parsed: Bool = entry.withUnsafeBufferPointer { buffer in
            guard UTF8Check.isValid(buffer) else { return false }
            var scanner = JSONScanner(buffer)
            guard (try? scanner.fields(into: &entryFields)) != nil, scanner.atEnd else { return false }
            return true
        }
        guard parsed else { return fail() }
        guard let secret else { return } // no secret: nothing to serve (as the full parse skips it)
        // Only the fields the index reads are decoded; names are compared as bytes (the last of a
        // repeated name wins, as in the whole parse).
        var values = [String?](repeating: nil, count: Self.wanted.count)
        var hasSecret = false
        entry.withUnsafeBufferPointer { buffer in
            for field in entryFields {
                let name = UnsafeBufferPointer(rebasing: buffer[Int(field.keyStart)..<Int(field.keyEnd)])
                if name.elementsEqual(Self.secretName) {
                    hasSecret = field.isString
                    continue
                }
                guard let slot = Self.wanted.firstIndex(where: { name.elementsEqual($0) }) else { continue }
                let range = Int(field.valueStart)..<Int(field.valueEnd)
                if !field.isString {
                    values[slot] =
                        slot >= Self.firstTime ? String(decoding: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self) : nil
                } else if field.valueEscaped {
                    values[slot] = JSONScanner.decodeString(buffer, range)
                } else {
                    values[slot] = String(decoding: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self)
                }
            }
        }
        guard hasSecret, let home = values[0] else { return }
        func time(_ slot: Int) -> Double? { values[slot].flatMap(Double.init) }
        tokens.append(
            LookupAccessToken(
                homeAccountId: intern(home), clientId: intern(values[1] ?? ""), environment: intern(values[2] ?? ""),
                realm: intern(values[3] ?? ""), target: intern(values[4] ?? ""), expiresOn: time(5), cachedAt: time(6),
                refreshOn: time(7), secret: secret))
    }

    /// The fields a look-up needs, in `LookupAccessToken`'s order; times (strings or numbers) from `firstTime` on.
    private static let wanted = ["home_account_id", "client_id", "environment", "realm", "target", "expires_on", "cached_at", "refresh_on"]
        .map { Array($0.utf8) }
    private static let firstTime = 5

    private mutating func intern(_ string: String) -> String {
        if let known = interned[string] { return known }
        interned[string] = string
        return string
    }
}
