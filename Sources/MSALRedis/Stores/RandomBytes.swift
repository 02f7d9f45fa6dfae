import CRedisTLS
import Foundation

/// Random bytes from OpenSSL's generator (`msal_redis_random`, Sources/CRedisTLS/shim.h): the
/// stores' ids, versions and nonces.
enum RandomBytes {
    /// `count` random bytes; `.invalidValue` naming `what` when the generator has none.
    static func make(_ count: Int, for what: String) throws(MSALRedisError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        guard msal_redis_random(&bytes, Int32(count)) == 1 else { throw MSALRedisError(.invalidValue, "No random bytes for \(what)") }
        return bytes
    }

    /// `count` random bytes as lowercase hexadecimal, two characters each.
    static func hex(_ count: Int, for what: String) throws(MSALRedisError) -> String {
        try make(count, for: what).map { String(format: "%02x", $0) }.joined()
    }
}
