import Foundation

/// Proof Key for Code Exchange (RFC 7636) with the `S256` method, the only one MSAL sends.
///
/// The verifier stays in the app until the token call; the authorize URL carries only the
/// challenge, `BASE64URL(SHA256(ASCII(verifier)))`.
///
/// ```swift
/// let pkce = PKCE.generate()
/// // authorize: code_challenge=\(pkce.challenge)&code_challenge_method=S256
/// // token:     code_verifier=\(pkce.verifier)
/// ```
package struct PKCE: Sendable, Equatable {
    /// The value of `code_challenge_method`.
    package static let method = "S256"
    /// Random bytes in a verifier: 32, as MSAL for Apple, giving 43 base64url characters (RFC 7636 §4.1).
    package static let verifierByteCount = 32

    /// The `code_verifier` sent to the token endpoint.
    package let verifier: String
    /// The `code_challenge` sent to the authorize endpoint.
    package let challenge: String

    /// The pair for a known verifier (RFC 7636 Appendix B, or a verifier kept across a restart).
    package init(verifier: String) {
        self.verifier = verifier
        self.challenge = Self.challenge(for: verifier)
    }

    /// A fresh verifier from `random` and its challenge.
    package static func generate(using random: RandomBytes = .system) -> PKCE {
        PKCE(verifier: Base64URL.encode(Data(random.bytes(verifierByteCount))))
    }

    /// `BASE64URL-ENCODE(SHA256(ASCII(verifier)))`, without padding (RFC 7636 §4.2).
    package static func challenge(for verifier: String) -> String {
        Base64URL.encode(SHA256.hash(Array(verifier.utf8)))
    }
}
