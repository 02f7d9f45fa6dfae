import CRedisTLS
import Foundation

/// The envelope of every value this library stores: a format tag, then the bytes as they are or
/// sealed with AES-256-GCM under the app's key (a fresh 96-bit nonce each time; the Redis key the
/// value is stored under is authenticated with it, so a value copied under another key fails).
///
///     plain:     "MSR1p" bytes
///     encrypted: "MSR1e" nonce(12) tag(16) ciphertext
///
/// A value without one of these tags, encrypted data that does not authenticate, a plain value
/// read with a key set, or an encrypted one read without it: `.invalidValue`, never the bytes.
struct ValueSeal: Sendable {
    private static let plainTag = Array("MSR1p".utf8)
    private static let sealedTag = Array("MSR1e".utf8)
    private let key: [UInt8]?

    /// `key`: 32 bytes, or `nil` for values stored as they are.
    init(key: Data?) throws(MSALRedisError) {
        if let key, key.count != 32 {
            throw MSALRedisError(.invalidConfiguration, "The encryption key must be 32 bytes (AES-256), not \(key.count)")
        }
        self.key = key.map { [UInt8]($0) }
    }

    var encrypts: Bool { key != nil }

    func seal(_ plain: Data, storedAs name: Data) throws(MSALRedisError) -> Data {
        guard let key else { return Data(Self.plainTag) + plain }
        let nonce = try RandomBytes.make(12, for: "a value's nonce")
        var tag = [UInt8](repeating: 0, count: 16)
        var cipher = [UInt8](repeating: 0, count: plain.count)
        let aad = [UInt8](name)
        let input = [UInt8](plain)
        guard msal_redis_seal(key, nonce, aad, Int32(aad.count), input, Int32(input.count), &cipher, &tag) == 1
        else { throw MSALRedisError(.invalidValue, "A value could not be encrypted") }
        return Data(Self.sealedTag + nonce + tag + cipher)
    }

    func open(_ stored: Data, storedAs name: Data) throws(MSALRedisError) -> Data {
        let bytes = [UInt8](stored)
        if bytes.starts(with: Self.plainTag) {
            guard key == nil else {
                throw MSALRedisError(.invalidValue, "A stored value is not encrypted although an encryption key is set")
            }
            return Data(bytes[Self.plainTag.count...])
        }
        guard bytes.starts(with: Self.sealedTag) else {
            throw MSALRedisError(.invalidValue, "A stored value is not one this library wrote")
        }
        guard let key else { throw MSALRedisError(.invalidValue, "A stored value is encrypted and no encryption key is set") }
        let header = Self.sealedTag.count
        guard bytes.count >= header + 28 else { throw MSALRedisError(.invalidValue, "An encrypted value is truncated") }
        let nonce = Array(bytes[header..<(header + 12)])
        let tag = Array(bytes[(header + 12)..<(header + 28)])
        let cipher = Array(bytes[(header + 28)...])
        var plain = [UInt8](repeating: 0, count: cipher.count)
        let aad = [UInt8](name)
        guard msal_redis_open(key, nonce, aad, Int32(aad.count), cipher, Int32(cipher.count), tag, &plain) == 1 else {
            throw MSALRedisError(.invalidValue, "An encrypted value does not authenticate under the key (tampered with, or another key)")
        }
        return Data(plain)
    }
}
