import Foundation
import Testing

@testable import MSAL

/// The cache codec: one pass over the bytes, entries kept as text until changed.
/// Every case compares with Foundation's own JSON reading, the reference for what the text means.
@Suite struct TokenCacheCodecTests {
    private func document(_ text: String) throws -> TokenCacheDocument {
        try TokenCacheDocument(json: Data(text.utf8))
    }

    /// The text as Foundation reads it (numbers compared as numbers, key order ignored), with the
    /// five sections the SDK always writes added as empty where missing.
    private func meaning(_ data: Data) throws -> NSDictionary {
        var top = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        for section in TokenCacheDocument.Section.allCases where top[section.rawValue] == nil { top[section.rawValue] = [String: Any]() }
        return top as NSDictionary
    }

    private let pythonStyle = """
        {
            "AccessToken": {
                "home-env-accesstoken-client-realm-scope": {
                    "credential_type": "AccessToken",
                    "secret": "a\\"quoted\\" \\\\ secret \\u00e9\\ud83d\\ude00 /",
                    "home_account_id": "home",
                    "environment": "env",
                    "client_id": "client",
                    "realm": "realm",
                    "target": "scope",
                    "expires_on": "1900000000",
                    "ext": {"nested": [1, 2.5, -3e2, true, false, null, "x"]},
                    "number_time": 1700000000
                }
            },
            "Account": {"k": {"home_account_id": "home", "username": "ünïcode@example.com"}},
            "AppMetadata": {},
            "FutureSection": {"a": {"b": [{"c": {}}]}},
            "version": 2,
            "list": ["a", {"b": null}]
        }
        """

    @Test func fieldsDecodeAsFoundationReadsThem() throws {
        let parsed = try document(pythonStyle)
        let entry = try #require(parsed[.accessToken]["home-env-accesstoken-client-realm-scope"])
        #expect(entry.string("secret") == "a\"quoted\" \\ secret é😀 /")
        #expect(entry.epochSeconds("expires_on") == 1_900_000_000)
        #expect(entry.epochSeconds("number_time") == 1_700_000_000)
        #expect(
            entry["ext"]
                == .object(["nested": .array([.number(1), .number(2.5), .number(-300), .bool(true), .bool(false), .null, .string("x")])]))
        #expect(entry.string("missing") == nil)
        #expect(entry.string("ext") == nil, "an object is not a string")
        #expect(parsed[.account]["k"]?.string("username") == "ünïcode@example.com")
        #expect(parsed.otherMembers["version"]?.value == .number(2))
        #expect(parsed[.refreshToken].isEmpty)
    }

    @Test func aRoundTripKeepsTheMeaningOfEverything() throws {
        let original = Data(pythonStyle.utf8)
        let written = try document(pythonStyle).serialized()
        #expect(try meaning(written) == (try meaning(original)))
        #expect(try TokenCacheDocument(json: written) == (try document(pythonStyle)))
    }

    @Test func anUnchangedEntryIsCopiedAsItWasAndAChangedOneKeepsItsUnknownFields() throws {
        var parsed = try document(pythonStyle)
        parsed[.accessToken]["home-env-accesstoken-client-realm-scope"]?["secret"] = .string("new\nline\u{1}")
        let written = parsed.serialized()
        let text = String(decoding: written, as: UTF8.self)
        // The untouched account entry is the very text it was read from (its spacing included).
        #expect(text.contains(#"{"home_account_id": "home", "username": "ünïcode@example.com"}"#))
        let reread = try meaning(written)
        let entry = try #require((reread["AccessToken"] as? NSDictionary)?["home-env-accesstoken-client-realm-scope"] as? NSDictionary)
        #expect(entry["secret"] as? String == "new\nline\u{1}")
        #expect((entry["ext"] as? NSDictionary)?["nested"] as? NSArray == [1, 2.5, -300, true, false, NSNull(), "x"] as NSArray)
        #expect(text.contains(#""new\nline\u0001""#), "control characters are escaped")
    }

    @Test func keysAreCaseSensitiveAndTheLastOfARepeatedFieldWins() throws {
        let parsed = try document(#"{"Account":{"k":{"username":"first","username":"second","Username":"other"}}}"#)
        #expect(parsed[.account]["k"]?.string("username") == "second")
        #expect(parsed[.account]["k"]?.string("Username") == "other")
        #expect(parsed[.account]["k"]?.fields["username"] == .string("second"))
    }

    @Test func escapedKeysAreFound() throws {
        let parsed = try document(#"{"Account":{"k\u0041":{"user\u006eame":"x\/y"}}}"#)
        #expect(parsed[.account]["kA"]?.string("username") == "x/y")
    }

    /// `\u` escapes with upper-case hex digits, as other MSAL libraries write them, mean what the
    /// lower-case ones do (every digit A to F, in a value, a surrogate pair and a key).
    @Test func unicodeEscapesWithUpperCaseHexDigitsDecode() throws {
        let text = #"""
            {"Account":{"k":{"upper":"\u00C9\u00E9\u00FF\uABCD\uD83D\uDE00","lower":"\u00c9\u00e9\u00ff\uabcd\ud83d\ude00","mixed":"\u00dF","n\u00C4me":"x"}}}
            """#
        let entry = try #require(try document(text)[.account]["k"])
        #expect(entry.string("upper") == "Éé\u{FF}\u{ABCD}😀")
        #expect(entry.string("lower") == entry.string("upper"))
        #expect(entry.string("mixed") == "ß")
        #expect(entry.string("nÄme") == "x")
        let foundation = try #require(
            (try meaning(Data(text.utf8))["Account"] as? NSDictionary)?["k"] as? NSDictionary)
        #expect(foundation["upper"] as? String == entry.string("upper"))
    }

    @Test func comparisonsIgnoreASCIICaseOnly() throws {
        let entry = try #require(try document(#"{"Account":{"k":{"environment":"Contoso.CIAMLogin.com","e":"\u00c9"}}}"#)[.account]["k"])
        #expect(entry.string("environment", equalsIgnoringCase: "contoso.ciamlogin.com"))
        #expect(!entry.string("environment", equalsIgnoringCase: "contoso.ciamlogin.co"))
        #expect(!entry.string("environment", equalsIgnoringCase: "contoso.ciamlogin.comm"))
        #expect(entry.string("e", equalsIgnoringCase: "é"), "an escaped value is decoded first")
        #expect(!entry.string("missing", equalsIgnoringCase: ""))
    }

    @Test func aByteOrderMarkIsSkipped() throws {
        let parsed = try TokenCacheDocument(bytes: [0xEF, 0xBB, 0xBF] + Array(#"{"Account":{"k":{"username":"ada"}}}"#.utf8))
        #expect(parsed[.account]["k"]?.string("username") == "ada")
        #expect(parsed.serializedBytes().first == UInt8(ascii: "{"), "written back without it")
    }

    @Test func emptyTextIsAnEmptyCache() throws {
        #expect(try document("").isEmpty)
        #expect(try document(" \n\t ").isEmpty)
        #expect(try document("{}").isEmpty)
    }

    @Test(arguments: [
        ("[]", "not an object"),
        (#"{"AccessToken":{"k":[]}}"#, "an entry that is not an object"),
        (#"{"AccessToken":{"k":"v"}}"#, "an entry that is a string"),
    ])
    func jsonThatIsNotACacheIsRefused(_ text: String, _ why: String) {
        #expect(throws: SetupError.self, "\(why)") { try document(text) }
    }

    /// Not JSON by RFC 8259 (Foundation on Linux lets trailing commas through; the cache does not).
    @Test(arguments: [
        (#"{"AccessToken":{"k":{"a":"b"}}"#, "truncated"),
        (#"{"a":1} x"#, "text after the object"),
        (#"{"a":01}"#, "a leading zero"),
        (#"{"a":1.}"#, "a fraction without digits"),
        (#"{"a":-}"#, "a minus alone"),
        (#"{"a":1e}"#, "an exponent without digits"),
        (#"{"a":tru}"#, "a cut literal"),
        (#"{"a":"\x"}"#, "an unknown escape"),
        (#"{"a":"\ud83d"}"#, "a lone high surrogate"),
        (#"{"a":"\ude00"}"#, "a lone low surrogate"),
        (#"{"a":"\u12"}"#, "a short unicode escape"),
        ("{\"a\":\"tab\there\"}", "a raw control character"),
        (#"{"a" 1}"#, "a missing colon"),
        (#"{"a":1,}"#, "a trailing comma"),
        (#"{"AccessToken":{"k":{"a":1,}}}"#, "a trailing comma in an entry"),
        (#"{"a":"unterminated}"#, "an unterminated string"),
        (#"{"a":"ends with backslash\"}"#, "an escaped closing quote"),
        (#"{a:1}"#, "an unquoted key"),
    ])
    func malformedTextIsRefused(_ text: String, _ why: String) {
        #expect(throws: SetupError.self, "\(why)") { try document(text) }
    }

    @Test(arguments: [[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x80]])
    func invalidUTF8IsRefused(_ bytes: [UInt8]) {
        let text = Array(#"{"Account":{"k":{"username":""#.utf8) + bytes + Array(#""}}}"#.utf8)
        #expect(throws: SetupError.self) { try TokenCacheDocument(bytes: text) }
    }

    @Test func validMultibyteUTF8IsAccepted() throws {
        for sample in ["é", "€", "😀", "\u{10FFFF}", "\u{7FF}", "\u{800}", "\u{FFFF}"] {
            let parsed = try document(#"{"Account":{"k":{"username":"\#(sample)"}}}"#)
            #expect(parsed[.account]["k"]?.string("username") == sample)
        }
    }

    @Test func deepNestingIsRefusedNotACrash() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: SetupError.self) { try document(#"{"deep":\#(deep)}"#) }
        let fine = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(try document(#"{"fine":\#(fine)}"#).otherMembers["fine"] != nil)
    }

    @Test func entriesMadeHereAreWrittenWithSortedFields() throws {
        var built = TokenCacheDocument()
        built[.appMetadata]["m"] = ["b": .string("2"), "a": .string("1"), "c": .array([.number(0.5), .null])]
        built.otherMembers["z"] = TokenCacheMember(.bool(true))
        let text = String(decoding: built.serialized(), as: UTF8.self)
        #expect(
            text
                == #"{"AccessToken":{},"Account":{},"AppMetadata":{"m":{"a":"1","b":"2","c":[0.5,null]}},"IdToken":{},"RefreshToken":{},"z":true}"#
        )
    }

    @Test func sectionKeysAreWrittenInByteOrder() throws {
        let parsed = try document(#"{"Account":{"b":{},"a":{},"B":{},"é":{},"ab":{}}}"#)
        let text = String(decoding: parsed.serialized(), as: UTF8.self)
        #expect(text.contains(#""Account":{"B":{},"a":{},"ab":{},"b":{},"é":{}}"#))
    }

    /// Random documents written by Foundation must read back with the same meaning.
    @Test func randomDocumentsMeanWhatFoundationSays() throws {
        var generator = SplitMix(seed: 13)
        for _ in 0..<200 {
            var sections: [String: Any] = [:]
            for name in ["AccessToken", "Account", "Other"] where generator.next() % 3 != 0 {
                var entries: [String: Any] = [:]
                for _ in 0..<(generator.next() % 4) {
                    var fields: [String: Any] = [:]
                    for _ in 0..<(generator.next() % 5) { fields[randomString(&generator)] = randomValue(&generator, depth: 0) }
                    entries[randomString(&generator)] = fields
                }
                sections[name] = entries
            }
            sections[randomString(&generator)] = randomValue(&generator, depth: 0)
            let data = try JSONSerialization.data(withJSONObject: sections, options: generator.next() % 2 == 0 ? [] : [.prettyPrinted])
            let parsed = try TokenCacheDocument(json: data)
            #expect(try meaning(parsed.serialized()) == (try meaning(data)))
            for (key, entry) in parsed[.accessToken] {
                let expected = ((sections["AccessToken"] as? [String: Any])?[key] as? [String: Any]) ?? [:]
                #expect(JSONValue.object(entry.fields).foundationValue as? NSDictionary == expected as NSDictionary)
            }
        }
    }

    private func randomString(_ generator: inout SplitMix) -> String {
        let alphabet = Array("abcXYZ09 \"\\/\n\té€😀\u{1}")
        return String((0..<(generator.next() % 8)).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
    }

    private func randomValue(_ generator: inout SplitMix, depth: Int) -> Any {
        switch generator.next() % (depth > 2 ? 4 : 6) {
        case 0: return randomString(&generator)
        case 1: return Double(Int64(bitPattern: generator.next()) % 1_000_000) / 8
        case 2: return generator.next() % 2 == 0
        case 3: return NSNull()
        case 4: return (0..<(generator.next() % 3)).map { _ in randomValue(&generator, depth: depth + 1) }
        default:
            var object: [String: Any] = [:]
            for _ in 0..<(generator.next() % 3) { object[randomString(&generator)] = randomValue(&generator, depth: depth + 1) }
            return object
        }
    }
}

/// A small deterministic generator, so a failing case can be replayed.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
