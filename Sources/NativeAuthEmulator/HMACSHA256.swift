import CCrypto
import Foundation

/// HMAC-SHA256, for building HS256 tokens the sample APIs must refuse.
public enum HMACSHA256 {
    /// The 32-byte HMAC-SHA256 of `data` under `key`.
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
