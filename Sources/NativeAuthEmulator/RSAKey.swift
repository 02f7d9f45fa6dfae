import CCrypto
import Foundation

/// An RSA key pair that signs and verifies RS256, with its public half as a JWK.
///
/// `@unchecked Sendable`: the wrapped `EVP_PKEY` is never mutated after creation, and OpenSSL 3
/// allows concurrent signing and verification with one key (each call uses its own `EVP_MD_CTX`).
public final class RSAKey: @unchecked Sendable {
    private let key: OpaquePointer
    /// The key id published in the JWKS and the tokens' `kid`.
    public let keyID: String

    /// Generates a new 2048-bit key.
    public init(keyID: String) throws {
        guard let key = emu_rsa_generate(2048) else { throw EmulatorError("RSA key generation failed") }
        self.key = key
        self.keyID = keyID
    }

    deinit {
        EVP_PKEY_free(key)
    }

    /// The RS256 signature of `data`.
    public func sign(_ data: Data) throws -> Data {
        var signature = [UInt8](repeating: 0, count: 512)
        var length = signature.count
        let ok = data.withUnsafeBytes { raw in
            emu_rs256_sign(key, raw.bindMemory(to: UInt8.self).baseAddress, raw.count, &signature, &length)
        }
        guard ok == 1 else { throw EmulatorError("RS256 signing failed") }
        return Data(signature[0..<length])
    }

    /// Whether `signature` is this key's RS256 signature of `data`.
    public func verify(_ data: Data, signature: Data) -> Bool {
        data.withUnsafeBytes { raw in
            signature.withUnsafeBytes { sig in
                emu_rs256_verify(
                    key, raw.bindMemory(to: UInt8.self).baseAddress, raw.count,
                    sig.bindMemory(to: UInt8.self).baseAddress, sig.count) == 1
            }
        }
    }

    /// The public key as a JWK (`kty`, `use`, `alg`, `kid`, `n`, `e`).
    public var jwk: [String: String] {
        [
            "kty": "RSA", "use": "sig", "alg": "RS256", "kid": keyID,
            "n": Base64URLCoding.encode(publicPart(0)), "e": Base64URLCoding.encode(publicPart(1)),
        ]
    }

    private func publicPart(_ which: Int32) -> Data {
        var buffer = [UInt8](repeating: 0, count: 1024)
        let length = emu_rsa_public_part(key, which, &buffer, Int32(buffer.count))
        return length > 0 ? Data(buffer[0..<Int(length)]) : Data()
    }
}
