import Foundation

/// The claims of an id token (docs/protocol.md#id-token). The SDK does not check the signature, issuer or audience
/// (the token came straight from the authority over TLS, as in MSAL); it only reads the claims.
package struct IDToken: Sendable, Equatable {
    package var raw: String
    /// Header and payload claims merged (the payload wins on a clash), as IdentityCore does.
    package var claims: [String: JSONValue]

    /// Claims decoded before.
    package init(raw: String, claims: [String: JSONValue]) {
        self.raw = raw
        self.claims = claims
    }

    package init(raw: String) throws(NativeAuthDecodingError) {
        let segments = raw.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3 || segments.count == 2 else {
            throw NativeAuthDecodingError("The id token is not a compact JWT")
        }
        var merged: [String: JSONValue] = [:]
        for (index, segment) in segments.prefix(2).enumerated() {
            let part = index == 0 ? "header" : "payload"
            guard let bytes = Base64URL.decode(segment) else {
                throw NativeAuthDecodingError("The id token \(part) is not base64url")
            }
            guard let object = JSONValue.parse(bytes)?.objectValue else {
                throw NativeAuthDecodingError("The id token \(part) is not a JSON object")
            }
            merged.merge(object) { _, payload in payload }
        }
        self.raw = raw
        claims = merged
    }

    package func string(_ claim: String) -> String? {
        claims[claim]?.stringValue
    }

    /// `preferred_username`, else `sub`.
    package var username: String? { string("preferred_username") ?? string("sub") }
    /// `oid`, else `sub`.
    package var objectId: String? { string("oid") ?? string("sub") }
    package var tenantId: String? { string("tid") }
}
