import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The token cache in a JSON file, safe across threads and processes.
///
/// - The directory is created 0700 and the file written 0600.
/// - Writes go to a temporary file in the same directory (`O_CREAT|O_EXCL`, 0600), are `fsync`ed,
///   renamed over the cache file, and the directory is `fsync`ed: a reader, or a process killed at
///   any point, sees the old file or the new one, never a mix. (Foundation's atomic write would
///   reset the mode to 0644, so it is not used.)
/// - Every read-merge-write holds an exclusive `flock` on a side file `<name>.lock`, so two
///   programs that share the cache lose neither's tokens. Reads take no lock: rename is atomic.
/// - A file that cannot be parsed is renamed to `<name>.corrupt-<time>` (never deleted) and
///   reported; the cache carries on empty. A file that cannot be read (permissions) is reported and
///   left alone: the cache then refuses to write rather than overwrite what it could not read.
package final class FileTokenCacheStorage: TokenCacheStorage {
    package let url: URL
    /// `url.path`, computed once: it is read on every look-up.
    private let path: String
    private let lockPath: String
    private let maxBytes: Int
    private let secretsInFileFrom: Int
    private let watch: CacheFileWatch

    /// A `url` that is a symbolic link to a file stands for that file: it is read, locked, watched
    /// and replaced where it lies, and the link stays (replacing the link by a file would quietly
    /// part this app from every other user of the target).
    /// `watchDirectory: false` checks the file with `stat` on every look-up (the fallback, for tests).
    package init(url: URL, maxBytes: Int = 64 << 20, secretsInFileFrom: Int = 256 << 10, watchDirectory: Bool = true) {
        let url = Self.linkTarget(url) ?? url
        self.url = url
        path = url.path
        lockPath = url.path + ".lock"
        self.maxBytes = maxBytes
        self.secretsInFileFrom = secretsInFileFrom
        watch = CacheFileWatch(path: url.path, enabled: watchDirectory)
    }

    private static func linkTarget(_ url: URL) -> URL? {
        var info = stat()
        guard lstat(url.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK, let resolved = realpath(url.path, nil) else { return nil }
        defer { free(resolved) }
        return URL(fileURLWithPath: String(cString: resolved))
    }

    /// Whether changes are noticed by inotify rather than a `stat` per look-up (tests).
    package var isWatched: Bool { watch.isWatching }

    package var logDescription: LogMessage { "the file \(pii: url.path)" }

    /// `$XDG_DATA_HOME/msal-native-auth/<client id>/token_cache.json`, else under `~/.local/share`.
    package static func defaultURL(clientId: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let base: URL
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            base = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".local/share", isDirectory: true)
        }
        let safeClient = String(clientId.lowercased().map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" })
        return base.appendingPathComponent("msal-native-auth", isDirectory: true)
            .appendingPathComponent(safeClient, isDirectory: true).appendingPathComponent("token_cache.json")
    }

    /// Without a change reported by the directory watch, costs one non-blocking `read` of an
    /// inotify descriptor; otherwise (or where the watch declines) a `stat` of the file, and a
    /// read and parse when that shows a new version.
    package func load(ifChangedSince stamp: TokenCacheStamp?) throws(SetupError) -> TokenCacheSnapshot? {
        try watch.load(ifChangedSince: stamp, current: currentStamp) { (_) throws(SetupError) in try read(forLookups: true) }
    }

    package func update(_ change: (inout TokenCacheDocument) -> Void) throws(SetupError) -> TokenCacheSnapshot {
        try ensureDirectory()
        let lock = open(lockPath, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard lock >= 0 else { throw posixError("open the cache lock file", lockPath) }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 {
            guard errno == EINTR else { throw posixError("lock the token cache", lockPath) }
        }
        defer { flock(lock, LOCK_UN) }

        var snapshot = try read()
        change(&snapshot.document)
        try write(snapshot.document.serializedBytes())
        snapshot.stamp = try currentStamp()
        return snapshot
    }

    /// An exclusive, non-blocking `flock` on `<name>.refresh-<hash>.lock` beside the cache file.
    package func tryRefreshLock(_ name: String) -> (() -> Void)? {
        guard (try? ensureDirectory()) != nil else { return {} }
        return TokenCacheLockFile.tryExclusiveFlock(TokenCacheLockFile.refreshLockPath(base: path, name: name))
    }

    // MARK: Reading

    private func currentStamp() throws(SetupError) -> TokenCacheStamp {
        try TokenCacheStamp.ofFile(path, what: "the token cache")
    }

    /// The file as a whole document (for a read-merge-write). `forLookups`: a file of at least
    /// `secretsInFileFrom` bytes is read as a look-up copy, whose access tokens keep their metadata
    /// only and whose secrets stay in the file until served (`LookupCopyReader.swift`,
    /// `SecretFile.swift`): a process holds a few megabytes for a cache of ten thousand tokens
    /// instead of the whole file.
    private func read(forLookups: Bool = false) throws(SetupError) -> TokenCacheSnapshot {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return TokenCacheSnapshot(document: TokenCacheDocument(), stamp: TokenCacheStamp([-1])) }
            throw posixError("read the token cache", url.path)
        }
        var keepOpen = false
        defer { if !keepOpen { close(descriptor) } }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw posixError("inspect the token cache", url.path) }
        let stamp = TokenCacheStamp(info)
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw SetupError(.invalidParameter, "The token cache path \(url.path) is not a regular file")
        }
        guard Int(info.st_size) <= maxBytes else {
            return setAside("is larger than \(maxBytes) bytes")
        }
        if forLookups, Int(info.st_size) >= secretsInFileFrom {
            // Room for the whole file: the copy is smaller, never grows (growing copies it), and pages
            // never written are never resident.
            var reader = LookupCopyReader(capacity: Int(info.st_size))
            let complete = withUnsafeTemporaryAllocation(byteCount: 256 << 10, alignment: 16) { chunk in
                while !reader.failed {
                    let count = Glibc.read(descriptor, chunk.baseAddress!, chunk.count)
                    if count < 0, errno == EINTR { continue }
                    guard count > 0 else { return count == 0 }
                    reader.consume(UnsafeBufferPointer(start: chunk.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count))
                }
                return true
            }
            guard complete else { throw posixError("read the token cache", url.path) }
            if !reader.failed, let document = try? TokenCacheDocument(bytes: reader.output) {
                keepOpen = true
                let file = SecretFile(descriptor: descriptor, size: Int(info.st_size), modified: info.st_mtim)
                return TokenCacheSnapshot(
                    document: document, stamp: stamp, lookupAccessTokens: LookupAccessTokens(file: file, tokens: reader.tokens))
            }
            // Not a cache as this reader sees it: let the whole file decide (set aside only if really corrupt).
            return try read()
        }
        // Straight into the array the document keeps: one copy of the file in memory, not two.
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: Int(info.st_size)) { buffer, initialized in
            while initialized < buffer.count {
                let count = Glibc.read(descriptor, buffer.baseAddress! + initialized, buffer.count - initialized)
                if count < 0, errno == EINTR { continue }
                if count < 0 { failure = errno }
                if count <= 0 { break }
                initialized += count
            }
        }
        if failure != 0 {
            errno = failure
            throw posixError("read the token cache", url.path)
        }
        do {
            return TokenCacheSnapshot(document: try TokenCacheDocument(bytes: bytes), stamp: stamp)
        } catch {
            return setAside("is not a valid token cache (\(error.message))")
        }
    }

    /// Moves an unusable file out of the way, keeping it, and returns an empty cache with the problem.
    private func setAside(_ reason: String) -> TokenCacheSnapshot {
        let backup = url.path + ".corrupt-\(Int(Date().timeIntervalSince1970))-\(getpid())"
        let moved = rename(url.path, backup) == 0
        let message =
            moved
            ? "The token cache file \(url.path) \(reason); it was moved to \(backup) and the cache starts empty"
            : "The token cache file \(url.path) \(reason) and could not be moved aside"
        return TokenCacheSnapshot(
            document: TokenCacheDocument(), stamp: TokenCacheStamp([-1]), problem: SetupError(.invalidJSON, message))
    }

    // MARK: Writing

    private func ensureDirectory() throws(SetupError) {
        let directory = url.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw SetupError(.invalidParameter, "\(directory.path) is not a directory") }
            return
        }
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw SetupError(
                .invalidParameter, "Cannot create the token cache directory \(directory.path): \(error.localizedDescription)")
        }
        chmod(directory.path, 0o700)
    }

    private func write(_ data: [UInt8]) throws(SetupError) {
        do {
            try AtomicFile.write(data, to: url.path)
        } catch {
            let action =
                switch error.step {
                case .create: "create a temporary cache file"
                case .write: "write the token cache"
                case .replace: "replace the token cache"
                }
            throw .posix(action, error.path, code: error.code)
        }
    }

    /// With the system's error code, so that the app's `NSError` carries it (it said EIO before).
    private func posixError(_ action: String, _ path: String) -> SetupError { .posix(action, path) }
}
