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

/// Secrets and their comparison.
enum Secrets {
    /// `count` random bytes from OpenSSL's CSPRNG.
    static func randomBytes(_ count: Int) -> Data {
        var bytes = [UInt8](repeating: 0, count: count)
        if RAND_bytes(&bytes, Int32(count)) != 1 {
            // Fall back to the system generator; never to a predictable value.
            var generator = SystemRandomNumberGenerator()
            for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255, using: &generator) }
        }
        return Data(bytes)
    }

    /// An opaque token: 32 random bytes, base64url.
    static func opaqueToken() -> String {
        Base64URLCoding.encode(randomBytes(32))
    }

    /// A numeric one-time code of `length` digits, uniformly drawn.
    static func numericCode(length: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<length).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) })
    }

    /// Compares in time that depends only on the lengths, never on where the bytes differ.
    static func constantTimeEqual(_ a: Data, _ b: Data) -> Bool {
        guard a.count == b.count else { return false }
        if a.isEmpty { return true }
        return a.withUnsafeBytes { left in
            b.withUnsafeBytes { right in CRYPTO_memcmp(left.baseAddress, right.baseAddress, a.count) == 0 }
        }
    }

    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        constantTimeEqual(Data(a.utf8), Data(b.utf8))
    }
}

/// Passwords kept as salted PBKDF2-HMAC-SHA256 hashes, never in the clear.
struct PasswordHash: Sendable {
    let salt: Data
    let hash: Data
    let iterations: Int

    init(password: String, iterations: Int) {
        salt = Secrets.randomBytes(16)
        self.iterations = iterations
        hash = PasswordHash.derive(password, salt: salt, iterations: iterations)
    }

    func matches(_ password: String) -> Bool {
        Secrets.constantTimeEqual(PasswordHash.derive(password, salt: salt, iterations: iterations), hash)
    }

    private static func derive(_ password: String, salt: Data, iterations: Int) -> Data {
        var out = [UInt8](repeating: 0, count: 32)
        let utf8 = Array(password.utf8)
        _ = utf8.withUnsafeBufferPointer { pass in
            salt.withUnsafeBytes { saltBytes in
                pass.withMemoryRebound(to: CChar.self) { passChars in
                    emu_pbkdf2_sha256(
                        passChars.baseAddress, Int32(utf8.count), saltBytes.bindMemory(to: UInt8.self).baseAddress,
                        Int32(salt.count), Int32(iterations), &out, 32)
                }
            }
        }
        return Data(out)
    }
}

/// HMAC-SHA256, for building HS256 tokens the sample APIs must refuse.
public enum HMACSHA256 {
    public static func mac(key: Data, data: Data) -> Data {
        var out = [UInt8](repeating: 0, count: 32)
        _ = key.withUnsafeBytes { k in
            data.withUnsafeBytes { d in
                emu_hmac_sha256(k.bindMemory(to: UInt8.self).baseAddress, k.count, d.bindMemory(to: UInt8.self).baseAddress, d.count, &out)
            }
        }
        return Data(out)
    }
}

/// An error inside the emulator (start-up, configuration, seed).
public struct EmulatorError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// base64url without padding.
public enum Base64URLCoding {
    public static func encode(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    public static func decode(_ text: some StringProtocol) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        guard base64.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "/") }) else { return nil }
        guard base64.count % 4 != 1 else { return nil }
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
