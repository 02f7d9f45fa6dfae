import CCrypto
import Foundation

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
