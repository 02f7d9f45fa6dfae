import Foundation

/// Compact JWTs: RS256 signing for the emulator's tokens and strict verification for its sample APIs.
public enum JWT {
    /// Signs `claims` with `key` (header `{"alg":"RS256","kid":…,"typ":"JWT"}`).
    public static func sign(_ claims: [String: Any], with key: RSAKey) throws -> String {
        let header: [String: Any] = ["alg": "RS256", "kid": key.keyID, "typ": "JWT"]
        let signingInput = try segment(header) + "." + segment(claims)
        let signature = try key.sign(Data(signingInput.utf8))
        return signingInput + "." + Base64URLCoding.encode(signature)
    }

    /// A token in the same shape, signed with HS256 under `secret` (only for tests of refusal).
    public static func signHS256(_ claims: [String: Any], secret: Data, keyID: String) throws -> String {
        let header: [String: Any] = ["alg": "HS256", "kid": keyID, "typ": "JWT"]
        let signingInput = try segment(header) + "." + segment(claims)
        return signingInput + "." + Base64URLCoding.encode(HMACSHA256.mac(key: secret, data: Data(signingInput.utf8)))
    }

    /// An unsigned `alg: none` token (only for tests of refusal).
    public static func unsigned(_ claims: [String: Any]) throws -> String {
        try segment(["alg": "none", "typ": "JWT"]) + "." + segment(claims) + "."
    }

    private static func segment(_ object: [String: Any]) throws -> String {
        Base64URLCoding.encode(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
    }

    /// Why a bearer token was refused.
    public struct Rejection: Error, Sendable, Equatable {
        /// Why, in a sentence (for example "The token is not a compact JWS").
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// Verifies an RS256 token against `keys` (by `kid`), then returns its claims. Refuses any other
    /// algorithm (including `none` and HS256), an unknown `kid` and a bad signature. Time-based and
    /// audience checks are the caller's.
    public static func verify(_ token: String, keys: [RSAKey]) throws(Rejection) -> [String: Any] {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw Rejection("The token is not a compact JWS") }
        guard let headerData = Base64URLCoding.decode(parts[0]),
            let header = (try? JSONSerialization.jsonObject(with: headerData)) as? [String: Any]
        else { throw Rejection("The token header is not base64url JSON") }
        guard header["alg"] as? String == "RS256" else {
            throw Rejection("The token algorithm '\(header["alg"] as? String ?? "missing")' is not accepted; only RS256 is")
        }
        guard let kid = header["kid"] as? String, let key = keys.first(where: { $0.keyID == kid }) else {
            throw Rejection("The token's signing key (kid) is unknown")
        }
        guard let signature = Base64URLCoding.decode(parts[2]), !signature.isEmpty,
            key.verify(Data("\(parts[0]).\(parts[1])".utf8), signature: signature)
        else { throw Rejection("The token signature is invalid") }
        guard let payloadData = Base64URLCoding.decode(parts[1]),
            let claims = (try? JSONSerialization.jsonObject(with: payloadData)) as? [String: Any]
        else { throw Rejection("The token payload is not base64url JSON") }
        return claims
    }
}
