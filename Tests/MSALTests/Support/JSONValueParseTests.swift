import Foundation
import Testing

@testable import MSAL

/// `JSONValue.parse` (the scanner first, `JSONDecoder` for the rest) answers as `JSONDecoder` alone.
@Suite struct JSONValueParseTests {
    static func reference(_ data: Data) -> JSONValue? { try? JSONDecoder().decode(JSONValue.self, from: data) }

    @Test(arguments: [
        "{}", "[]", " {\"a\":[1,2.5,-0,true,false,null,\"x\"]} ", "\"\\u00e9\\ud83d\\ude00\\/\\n\"", "12345678901234567890",
        "1e400", "-1e400", "1e-400", "5e-324", "2.2250738585072014e-308", "0.0", "0e5", "-0.0e-0", "1E5",
        "0.000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001",
        "{\"a\":1,\"a\":2}", "{\"a\":{\"b\":1,\"b\":2}}", "\u{FEFF}{}", "[1,]", "{\"a\":1,}", "{} x", "01", "-", "1.", ".5", "+1",
        "\"\\ud800\"", "\"\\udc00\"", "\"\\u0000\"", "\"a\tb\"", "\"\\x\"", "", " ", "nul", "[1 2]", "{\"a\" 1}", "{1:2}",
        String(repeating: "[", count: 512) + String(repeating: "]", count: 512),
        String(repeating: "[", count: 513) + String(repeating: "]", count: 513),
        #"{"preferred_username":"ada@contoso.com","oid":"00000000-0000-0000-0000-000000000001","tid":"t","ver":"2.0","exp":1800000000}"#,
    ])
    func edgeCasesAnswerAsJSONDecoder(_ text: String) {
        let data = Data(text.utf8)
        #expect(JSONValue.parse(data) == Self.reference(data), "\(text.prefix(60).debugDescription)")
    }

    /// What servers send (an id token's claims, `client_info`) is read by the scanner.
    @Test func plainDocumentsAreReadByTheScanner() {
        for text in [
            #"{"preferred_username":"ada@contoso.com","oid":"00000000-0000-0000-0000-000000000001","exp":1800000000,"amr":["pwd"]}"#,
            #"{"uid":"u","utid":"t"}"#, #"{"alg":"RS256","typ":"JWT","kid":"k"}"#, "[0.5, -2, true, null]",
        ] {
            #expect(JSONValue.scanned(Data(text.utf8)) != nil, "\(text)")
            #expect(JSONValue.scanned(Data(text.utf8)) == Self.reference(Data(text.utf8)))
        }
    }

    @Test func bytesThatAreNotUTF8OrAreUTF16AnswerAsJSONDecoder() {
        for bytes: [UInt8] in [
            [0x22, 0xFF, 0x22], [0x22, 0xC3, 0x22], [0xEF, 0xBB, 0xBF, 0x7B, 0x7D], [0xFE, 0xFF, 0, 0x7B, 0, 0x7D], [0x7B, 0, 0x7D, 0],
        ] {
            #expect(JSONValue.parse(Data(bytes)) == Self.reference(Data(bytes)), "\(bytes)")
        }
    }

    /// Random documents, and the same with one byte dropped or doubled.
    @Test func randomDocumentsAndDamagedOnesAnswerAsJSONDecoder() {
        // TokenCacheCodecTests' generator: the same documents on every run.
        var generator = SplitMix(seed: 29)
        for _ in 0..<1500 {
            let text = Self.randomValue(&generator, depth: 0)
            var variants = [Data(text.utf8)]
            var bytes = Array(text.utf8)
            let at = Int(generator.next() % UInt64(bytes.count))
            if generator.next() % 2 == 0 { bytes.remove(at: at) } else { bytes.insert(bytes[at], at: at) }
            variants.append(Data(bytes))
            for data in variants {
                #expect(JSONValue.parse(data) == Self.reference(data), "\(String(decoding: data, as: UTF8.self).prefix(80))")
            }
        }
    }

    static func randomValue(_ generator: inout SplitMix, depth: Int) -> String {
        func pick<T>(_ choices: [T]) -> T { choices[Int(generator.next() % UInt64(choices.count))] }
        let space = pick(["", "", " ", "\n\t "])
        switch generator.next() % (depth > 3 ? 4 : 6) {
        case 0:
            return space
                + pick(["0", "-1", "42", "3.25", "-0.5e3", "1E-2", "1e308", "1e309", "4.9e-324", "1e-320", "9007199254740993", "0.1"])
        case 1:
            return space + "\""
                + (0..<(generator.next() % 5)).map { _ in pick(["a", "é", "😀", "\\n", "\\u00e9", "\\/", "\\\"", " ", "\\ud83d\\ude00"]) }
                .joined() + "\""
        case 2: return space + pick(["true", "false", "null"])
        case 3: return space + "\"\(pick(["x", "y", "preferred_username"]))\""
        case 4:
            return "[" + (0..<(generator.next() % 4)).map { _ in randomValue(&generator, depth: depth + 1) }.joined(separator: ",") + space
                + "]"
        default:
            let names = (0..<(generator.next() % 4)).map { _ in pick(["a", "b", "c", "oid", "a"]) }
            return "{" + names.map { "\"\($0)\"" + space + ":" + randomValue(&generator, depth: depth + 1) }.joined(separator: ",") + space
                + "}"
        }
    }
}
