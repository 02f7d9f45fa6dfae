import Foundation

/// Secrets kept in files, as operators keep them (a mounted secret, a file readable by the service
/// only): the one reading of a password file and a key file that every configuration format of the
/// package shares (`native-auth`'s and the C interface's `redis` object, docs/redis.md). Errors are
/// `.invalidConfiguration` and name the file, never what it holds.
extension MSALRedisConfiguration {
    /// The password in `path`: its first line, without the line break (`\n` or `\r\n`).
    public static func password(fromFile path: String) throws(MSALRedisError) -> String {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw MSALRedisError(.invalidConfiguration, "The password file \(path) cannot be read as UTF-8 text")
        }
        let line = text.prefix { $0 != "\n" && $0 != "\r\n" && $0 != "\r" }
        guard !line.isEmpty else {
            throw MSALRedisError(.invalidConfiguration, "The password file \(path) has no password on its first line")
        }
        return String(line)
    }

    /// The AES-256-GCM key in `path` (for `encryptionKey`): 32 bytes as they are
    /// (`head -c 32 /dev/urandom > FILE`), or 64 hex digits with or without a final line break.
    public static func encryptionKey(fromFile path: String) throws(MSALRedisError) -> Data {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw MSALRedisError(.invalidConfiguration, "The key file \(path) cannot be read")
        }
        if data.count == 32 { return data }
        var digits = Array(data)
        while let last = digits.last, last == UInt8(ascii: "\n") || last == UInt8(ascii: "\r") { digits.removeLast() }
        guard digits.count == 64, let key = hexBytes(digits) else {
            throw MSALRedisError(
                .invalidConfiguration, "The key file \(path) must hold 32 bytes or 64 hex digits (it holds \(data.count) bytes)")
        }
        return key
    }

    private static func hexBytes(_ digits: [UInt8]) -> Data? {
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var bytes = Data(capacity: digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }
}
