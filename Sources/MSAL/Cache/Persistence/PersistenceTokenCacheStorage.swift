import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The token cache kept by an app's `MSALTokenCachePersistence` (a keyring entry), with the
/// file store's guarantees supplied here once for every persistence:
///
/// - read-merge-write under `TokenCacheLockFile` (`<signal file>.lockfile`);
/// - the change stamp is the `stat` of the signal file, which every save replaces (a new inode, so
///   two saves within one clock tick still differ) and msal-extensions touches;
/// - the signal's directory is created 0700, the signal and lock files 0600;
/// - a stored document that cannot be parsed, or is larger than `maxBytes`, is set aside by the
///   persistence (under the lock), reported, and the cache starts empty; when it cannot be set
///   aside, writes fail rather than replace it;
/// - a persistence error becomes `cacheUnavailable` carrying the persistence's own error.
package final class PersistenceTokenCacheStorage: TokenCacheStorage {
    package let persistence: any MSALTokenCachePersistence
    private let signalPath: String
    private let lock: TokenCacheLockFile
    private let maxBytes: Int
    private let watch: CacheFileWatch

    package init(persistence: any MSALTokenCachePersistence, maxBytes: Int = 64 << 20, lockTimeout: TimeInterval = 30) {
        self.persistence = persistence
        signalPath = persistence.signalFile.path
        watch = CacheFileWatch(path: signalPath)
        lock = TokenCacheLockFile(path: signalPath + ".lockfile", timeout: lockTimeout)
        self.maxBytes = maxBytes
    }

    package var logDescription: LogMessage { "\(persistence.storeDescription), signal file \(pii: persistence.signalFile.path)" }

    /// As the file store: the signal file's directory is watched with inotify, so a look-up with
    /// no change reported costs one non-blocking `read`, not a `stat` (nor a D-Bus round trip).
    package func load(ifChangedSince stamp: TokenCacheStamp?) throws(SetupError) -> TokenCacheSnapshot? {
        try watch.load(ifChangedSince: stamp, current: currentStamp) { (current) throws(SetupError) in
            try read(stamp: current, locked: false)
        }
    }

    package func update(_ change: (inout TokenCacheDocument) -> Void) throws(SetupError) -> TokenCacheSnapshot {
        try ensureDirectory()
        return try lock.withLock { () throws(SetupError) -> TokenCacheSnapshot in
            var snapshot = try read(stamp: currentStamp(), locked: true)
            change(&snapshot.document)
            let data = snapshot.document.serialized()
            do {
                try persistence.save(data)
            } catch {
                throw failure("write the token cache to", error)
            }
            try replaceSignal()
            snapshot.stamp = try currentStamp()
            return snapshot
        }
    }

    package func tryRefreshLock(_ name: String) -> (() -> Void)? {
        guard (try? ensureDirectory()) != nil else { return {} }
        return TokenCacheLockFile.tryExclusiveFlock(TokenCacheLockFile.refreshLockPath(base: signalPath, name: name))
    }

    // MARK: Reading

    private func currentStamp() throws(SetupError) -> TokenCacheStamp {
        try TokenCacheStamp.ofFile(signalPath, what: "the token cache signal file")
    }

    /// The stored document. The stamp is taken before the read: a save in between makes the next
    /// look-up read again rather than miss it.
    private func read(stamp: TokenCacheStamp, locked: Bool) throws(SetupError) -> TokenCacheSnapshot {
        let data: Data?
        do {
            data = try persistence.load()
        } catch {
            throw failure("read the token cache from", error)
        }
        guard let data else { return TokenCacheSnapshot(document: TokenCacheDocument(), stamp: stamp) }
        let reason: String
        if data.count > maxBytes {
            reason = "is larger than \(maxBytes) bytes"
        } else {
            do {
                return TokenCacheSnapshot(document: try TokenCacheDocument(json: data), stamp: stamp)
            } catch {
                reason = "is not a valid token cache (\(error.message))"
            }
        }
        guard locked else {
            // Set aside under the lock, after reading again: a writer may have replaced it meanwhile.
            try ensureDirectory()
            return try lock.withLock { () throws(SetupError) -> TokenCacheSnapshot in
                try read(stamp: currentStamp(), locked: true)
            }
        }
        let place: String
        do {
            place = try persistence.setAside(data)
        } catch {
            // Not kept elsewhere: refuse to go on, so that nothing overwrites it.
            throw failure("set aside the unusable token cache (it \(reason)) in", error)
        }
        try replaceSignal()
        return TokenCacheSnapshot(
            document: TokenCacheDocument(), stamp: try currentStamp(),
            problem: SetupError(
                .invalidJSON,
                "The token cache in \(persistence.storeDescription) \(reason); it was kept \(place) and the cache starts empty"))
    }

    private func failure(_ action: String, _ error: any Error) -> SetupError {
        let underlying = error as NSError
        return SetupError(
            .cacheUnavailable, "Cannot \(action) \(persistence.storeDescription): \(underlying.localizedDescription)",
            underlying: underlying)
    }

    // MARK: Writing

    private func ensureDirectory() throws(SetupError) {
        let directory = persistence.signalFile.deletingLastPathComponent().path
        var info = stat()
        if stat(directory, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR else { throw SetupError(.invalidParameter, "\(directory) is not a directory") }
            return
        }
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw SetupError(.invalidParameter, "Cannot create the token cache directory \(directory): \(error.localizedDescription)")
        }
    }

    /// Replaces the signal file by a new one (a new inode) naming this process and a random
    /// number: readers in other processes see the change even within one clock tick.
    private func replaceSignal() throws(SetupError) {
        do {
            try AtomicFile.write(Data("\(getpid()) \(UInt64.random(in: 0...UInt64.max))\n".utf8), to: signalPath)
        } catch {
            let action =
                switch error.step {
                case .create: "create the token cache signal file"
                case .write: "write the token cache signal file"
                case .replace: "replace the token cache signal file"
                }
            throw .posix(action, error.path, code: error.code)
        }
    }
}
