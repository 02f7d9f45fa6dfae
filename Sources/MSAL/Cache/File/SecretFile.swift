import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Access tokens' secrets left in the file rather than in memory.
///
/// The copy of the cache a process keeps for look-ups needs every access token's metadata but only
/// the secrets of the tokens it serves, and the secrets are most of the file (1–2 KB each). So the
/// look-up copy is read through `LookupCopyReader`, which keeps each token's metadata and where its
/// secret lies; a secret is read from the file when its token is first served.
///
/// The file is read through a descriptor kept open: the SDK and MSAL's other libraries replace the
/// file by `rename`, which leaves the inode this descriptor reads untouched. A writer that rewrites
/// the file in place changes its size or modification time, which `read(_:)` checks after reading,
/// answering nil rather than a mixture (the caller then reloads).
package final class SecretFile: Sendable {
    private let descriptor: Int32
    private let size: Int
    private let modified: timespec

    /// Takes ownership of `descriptor`.
    init(descriptor: Int32, size: Int, modified: timespec) {
        self.descriptor = descriptor
        self.size = size
        self.modified = modified
    }

    deinit { close(descriptor) }

    struct Location: Sendable {
        /// The secret's text in the file, quotes excluded.
        var offset: Int
        var length: Int
        var escaped: Bool
    }

    /// The secret at `location`, or nil when the file changed under this descriptor or the text is not a valid string.
    func read(_ location: Location) -> String? {
        guard location.length >= 0, location.offset >= 0, location.offset + location.length <= size else { return nil }
        var bytes = [UInt8](repeating: 0, count: location.length)
        var done = 0
        while done < location.length {
            let count = bytes.withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress! + done, location.length - done, location.offset + done)
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            done += count
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_size == size, info.st_mtim.tv_sec == modified.tv_sec,
            info.st_mtim.tv_nsec == modified.tv_nsec
        else { return nil }
        return bytes.withUnsafeBufferPointer { buffer in
            guard UTF8Check.isValid(buffer) else { return nil }
            return location.escaped
                ? JSONScanner.decodeString(buffer, 0..<buffer.count)
                : JSONScanner.isValidStringText(buffer, 0..<buffer.count) ? String(decoding: buffer, as: UTF8.self) : nil
        }
    }
}
