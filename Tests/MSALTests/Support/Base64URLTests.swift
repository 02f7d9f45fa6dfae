import Foundation
import Testing

@testable import MSAL

/// `Base64URL.decode` answers as Foundation's decoder (`foundationDecode`), which it hands all but
/// plain text to.
@Suite struct Base64URLTests {
    static let alphabet = Array("AQw09+/-_=.é")

    @Test func everyShortTextDecodesAsFoundationDecodesIt() {
        var texts = [""]
        var longest = [""]
        for _ in 1...4 {
            longest = longest.flatMap { text in Self.alphabet.map { text + String($0) } }
            texts += longest
        }
        for text in texts {
            #expect(Base64URL.decode(text) == Base64URL.foundationDecode(text), "\(text.debugDescription)")
        }
    }

    @Test func longerTextsAndRealSegmentsToo() {
        // TokenCacheCodecTests' generator: the same texts on every run.
        var generator = SplitMix(seed: 7)
        for _ in 0..<3000 {
            let length = 5 + Int(generator.next() % 44)
            // Mostly the two alphabets with trailing padding.
            let plain = generator.next() % 4 != 0
            let choices = UInt64(plain ? 9 : Self.alphabet.count)
            var text = String((0..<length).map { _ in Self.alphabet[Int(generator.next() % choices)] })
            if plain { text += String(repeating: "=", count: Int(generator.next() % 3)) }
            #expect(Base64URL.decode(text) == Base64URL.foundationDecode(text), "\(text.debugDescription)")
        }
        for length in 0..<64 {
            let data = Data((0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
            #expect(Base64URL.decode(Base64URL.encode(data)) == data)
            #expect(Base64URL.decode(data.base64EncodedString()) == data)
        }
        #expect(Base64URL.decode("eyJhbGciOiJub25lIn0").map { String(decoding: $0, as: UTF8.self) } == #"{"alg":"none"}"#)
        #expect(Base64URL.decode("Q") == nil && Base64URL.decode("QQ=Q") == Base64URL.foundationDecode("QQ=Q"))
    }
}
