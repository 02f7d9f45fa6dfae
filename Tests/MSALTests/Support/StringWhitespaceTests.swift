import Foundation
import Testing

@testable import MSAL

/// `trimmingWhitespaceAndNewlines` gives what Foundation's `trimmingCharacters(in: .whitespacesAndNewlines)` gives.
@Suite struct StringWhitespaceTests {
    /// Every Unicode scalar up to U+3100 (all of White_Space lies below U+3001) and a few above,
    /// alone and around text.
    @Test func trimsExactlyWhatFoundationTrims() {
        let scalars = (0...0x3100).compactMap(Unicode.Scalar.init) + [0xFEFF, 0x1_F600, 0x10_FFFF].compactMap(Unicode.Scalar.init)
        for scalar in scalars {
            for text in [String(scalar), "\(scalar)id\(scalar)", "\(scalar)\(scalar) a b \(scalar)", "id\(scalar)"] {
                #expect(
                    text.trimmingWhitespaceAndNewlines == text.trimmingCharacters(in: .whitespacesAndNewlines),
                    "U+\(String(scalar.value, radix: 16)) in \(text.debugDescription)")
            }
        }
    }

    @Test func keepsWhatIsNotWhiteSpaceIncludingCombiningMarksAfterASpace() {
        #expect(" \u{301}x ".trimmingWhitespaceAndNewlines == " \u{301}x ".trimmingCharacters(in: .whitespacesAndNewlines))
        #expect("\t\n 11111111-1111-4111-8111-111111111111 \r\n".trimmingWhitespaceAndNewlines == "11111111-1111-4111-8111-111111111111")
        #expect("".trimmingWhitespaceAndNewlines == "")
        #expect("\u{3000}\u{2029}".trimmingWhitespaceAndNewlines == "")
    }
}
