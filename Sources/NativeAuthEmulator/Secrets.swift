import CCrypto
import Foundation

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
