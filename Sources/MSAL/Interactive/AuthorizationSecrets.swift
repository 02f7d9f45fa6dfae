import Foundation

/// The one-time values of one browser sign-in: the PKCE pair, the `state` that ties the redirect
/// to this request (RFC 6749 §10.12) and the OpenID Connect `nonce` that ties the id token to it.
///
/// All three come from the same injected `RandomBytes`, so a test can fix the whole authorize URL.
package struct AuthorizationSecrets: Sendable, Equatable {
    /// Random bytes in `state` and in `nonce`: 32 (256 bits, above the 128 that RFC 6749 §10.10 asks).
    package static let randomByteCount = 32

    /// The PKCE verifier and challenge.
    package var pkce: PKCE
    /// The `state` parameter, base64url without padding.
    package var state: String
    /// The `nonce` parameter, base64url without padding; the id token must echo it.
    package var nonce: String

    /// Known values (tests, golden URLs).
    package init(pkce: PKCE, state: String, nonce: String) {
        self.pkce = pkce
        self.state = state
        self.nonce = nonce
    }

    /// Fresh values: the verifier first, then `state`, then `nonce`, each its own draw.
    package static func generate(using random: RandomBytes = .system) -> AuthorizationSecrets {
        let pkce = PKCE.generate(using: random)
        let state = Base64URL.encode(Data(random.bytes(randomByteCount)))
        let nonce = Base64URL.encode(Data(random.bytes(randomByteCount)))
        return AuthorizationSecrets(pkce: pkce, state: state, nonce: nonce)
    }
}
