import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The cross-process lock of a token cache kept by an `MSALTokenCachePersistence`: the file
/// `<signal file>.lockfile`, which exists exactly while someone holds the lock, as in
/// msal-extensions' `CrossPlatLock` (both its variants: exclusive creation alone, and exclusive
/// creation followed by `flock` through portalocker). So this SDK and MSAL for Python with
/// msal-extensions exclude each other.
///
/// - Acquire: `open(O_CREAT|O_EXCL)`, then `flock` it and write `"<pid> <program>"` (what
///   msal-extensions writes). Release: `unlink`, then close.
/// - A lock file left by a process that died is broken when its owner is gone: the file's `flock`
///   is free (every holder of ours keeps it) and the pid it names does not exist. The breaker
///   holds that `flock` and checks that the path still names the same file before unlinking it,
///   so two breakers cannot remove a fresh lock. A file without a pid (a holder between creating
///   and writing it) counts as stale only once it is older than the timeout.
/// - While a live process holds it, `acquire` polls (1 ms, doubling up to 50 ms) until `timeout`,
///   then fails with an error naming the file and the holder.
package struct TokenCacheLockFile: Sendable {
    package let path: String
    package let timeout: TimeInterval

    package init(path: String, timeout: TimeInterval = 30) {
        self.path = path
        self.timeout = timeout
    }

    /// Runs `body` holding the lock.
    package func withLock<R>(_ body: () throws(SetupError) -> R) throws(SetupError) -> R {
        let descriptor = try acquire()
        defer {
            unlink(path)
            close(descriptor)
        }
        return try body()
    }

    private func acquire() throws(SetupError) -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        var delay: useconds_t = 1000
        while true {
            let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
            if descriptor >= 0 {
                // Non-blocking: only a breaker (for an instant) or a portalocker peer that gave up
                // waiting could hold it, and the exclusive creation is the lock anyway.
                _ = flock(descriptor, LOCK_EX | LOCK_NB)
                let owner = "\(getpid()) \(CommandLine.arguments.first ?? "swift")"
                _ = owner.withCString { write(descriptor, $0, strlen($0)) }
                return descriptor
            }
            guard errno == EEXIST || errno == EINTR else {
                throw SetupError.posix("create the token cache lock file", path)
            }
            if breakIfStale() { continue }
            guard Date() < deadline else {
                throw SetupError(
                    .cacheUnavailable,
                    "The token cache lock file \(path) has been held for more than \(Int(timeout)) s (\(holder() ?? "holder unknown")); "
                        + "if no program using this token cache is running, remove it", posixCode: EBUSY)
            }
            usleep(delay)
            delay = min(delay * 2, 50_000)
        }
    }

    /// Removes the lock file when its holder is gone; true when it did (or the file vanished).
    private func breakIfStale() -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return errno == ENOENT }
        defer { close(descriptor) }
        // A holder of ours keeps the flock: a busy flock means a live holder.
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return false }
        defer { flock(descriptor, LOCK_UN) }
        var opened = stat()
        var named = stat()
        guard fstat(descriptor, &opened) == 0, stat(path, &named) == 0 else { return errno == ENOENT }
        guard opened.st_dev == named.st_dev, opened.st_ino == named.st_ino else { return true } // replaced meanwhile: try again
        if let pid = Self.pid(in: readOwner(descriptor)) {
            if pid == getpid() || kill(pid, 0) == 0 || errno == EPERM { return false }
        } else {
            let age = Date().timeIntervalSince1970 - Double(named.st_mtim.tv_sec)
            guard age > timeout else { return false }
        }
        return unlink(path) == 0 || errno == ENOENT
    }

    private func readOwner(_ descriptor: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = pread(descriptor, &buffer, buffer.count, 0)
        return count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : ""
    }

    private func holder() -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return Self.pid(in: readOwner(descriptor)).map { "held by pid \($0)" }
    }

    private static func pid(in owner: String) -> pid_t? {
        owner.split(separator: " ", maxSplits: 1).first.flatMap { pid_t($0) }.flatMap { $0 > 0 ? $0 : nil }
    }

    /// An exclusive, non-blocking `flock` on `path` (created 0600): its release, nil when another
    /// process holds it, a no-op release when no lock can be had (refresh unlocked rather than not
    /// at all). The token refresh lock of the file and persistence stores.
    package static func tryExclusiveFlock(_ path: String) -> (() -> Void)? {
        let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return {} }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            return nil
        }
        return {
            flock(descriptor, LOCK_UN)
            close(descriptor)
        }
    }

    /// The refresh lock file of `name` beside `base`: `<base>.refresh-<FNV-1a of name>.lock`.
    package static func refreshLockPath(base: String, name: String) -> String {
        var hash: UInt64 = 14_695_981_039_346_656_037
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 1_099_511_628_211 }
        return base + ".refresh-\(String(hash, radix: 16)).lock"
    }
}

extension SetupError {
    /// `cacheUnavailable` for a failed system call, with `errno`.
    package static func posix(_ action: String, _ path: String) -> SetupError {
        posix(action, path, code: errno)
    }

    /// `cacheUnavailable` for a failed system call whose `errno` was `code`.
    package static func posix(_ action: String, _ path: String, code: Int32) -> SetupError {
        SetupError(
            .cacheUnavailable, "Cannot \(action) at \(path): \(String(cString: strerror(code))) (errno \(code))", posixCode: code)
    }
}
