import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Tells a reader, for the price of one non-blocking `read`, whether the cache file may have
/// changed since it last asked: an inotify watch on the file's directory, which sees
/// every way the file is replaced or written (rename over it, in-place write, delete), by this
/// process or any other.
///
/// The kernel queues an event before the writer's `rename` or `write` returns, so a change made
/// before a look-up starts is always seen by that look-up. Where inotify cannot promise that, the
/// watch declines and the reader `stat`s the file on every look-up as before:
/// - no inotify instance (the per-user limit reached, a kernel without it);
/// - a directory that does not exist yet (tried again on each look-up until it does);
/// - a cache path that is a symbolic link (the watch would see the link, not its target);
/// - a network or FUSE file system (changes made on another machine raise no event here);
/// - a lost watch (directory deleted or moved) or an overflowed event queue (then the watch is
///   set up again, and the look-up that noticed checks the file).
///
/// The watch is set up only after `checksBeforeWatching` checks, which the reader answers with its
/// `stat`: a process that ends after a few look-ups (a command printing one token) never makes
/// one. Removing a watch when the process ends waits for the kernel (an RCU grace period), which
/// took a fresh process 4 to 12 ms more on a busy machine (BENCHMARKS.md, "fresh process").
package final class CacheFileWatch: Sendable {
    private let directory: String
    private let fileName: [UInt8]
    private let path: String
    private let state = Locked(State())

    private struct State {
        var descriptor: Int32 = -1
        var watch: Int32 = -1
        /// inotify is unusable here for good (no instance, symlink, remote file system).
        var disabled = false
        /// Checks so far, up to `checksBeforeWatching`.
        var checks = 0
    }

    /// How many checks the reader's `stat` answers before the watch is set up.
    package static let checksBeforeWatching = 16

    /// `enabled: false` never watches (every check answers false): the `stat` fallback, for tests.
    package init(path: String, enabled: Bool = true) {
        self.path = path
        let url = URL(fileURLWithPath: path)
        directory = url.deletingLastPathComponent().path
        fileName = Array(url.lastPathComponent.utf8)
        state.withLock { $0.disabled = !enabled }
    }

    deinit {
        state.withLock { if $0.descriptor >= 0 { close($0.descriptor) } }
    }

    /// Whether inotify watches the file now (for tests and the log).
    package var isWatching: Bool { state.withLock { $0.watch >= 0 } }

    /// True when nothing can have changed the file since the previous call that returned true or
    /// false; false when it may have (or when that cannot be known), and the caller must check
    /// the file itself. The first call after a watch is set up returns false.
    package func isUnchangedSinceLastCheck() -> Bool {
        state.withLock { state in
            guard !state.disabled else { return false }
            guard state.watch >= 0 else {
                if state.checks < Self.checksBeforeWatching {
                    state.checks += 1
                } else {
                    startWatching(&state)
                }
                return false
            }
            return drainFindsNoChange(&state)
        }
    }

    private func startWatching(_ state: inout State) {
        var link = stat()
        if lstat(path, &link) == 0, (link.st_mode & S_IFMT) == S_IFLNK {
            state.disabled = true
            return
        }
        guard let real = realpath(directory, nil) else { return } // no directory yet: try again later
        let resolved = String(cString: real)
        free(real)
        if Self.isRemote(Self.fileSystemType(of: resolved)) {
            state.disabled = true
            return
        }
        if state.descriptor < 0 {
            state.descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard state.descriptor >= 0 else {
                state.disabled = true // no inotify instance left (the per-user limit), or no inotify
                return
            }
        }
        let mask = UInt32(
            IN_CLOSE_WRITE | IN_MODIFY | IN_ATTRIB | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF
                | IN_ONLYDIR)
        let watch = inotify_add_watch(state.descriptor, directory, mask)
        guard watch >= 0 else {
            if errno != ENOENT && errno != ENOTDIR { state.disabled = true } // ENOSPC: the watch limit
            return
        }
        state.watch = watch
    }

    /// Reads every queued event; false when one concerns the cache file or the watch itself.
    private func drainFindsNoChange(_ state: inout State) -> Bool {
        withUnsafeTemporaryAllocation(byteCount: 4096, alignment: 8) { buffer in drain(&state, into: buffer) }
    }

    private func drain(_ state: inout State, into buffer: UnsafeMutableRawBufferPointer) -> Bool {
        var unchanged = true
        let size = buffer.count
        let buffer = buffer.baseAddress!
        while true {
            let count = read(state.descriptor, buffer, size)
            if count < 0 {
                if errno == EINTR { continue }
                if errno != EAGAIN { Self.stop(&state) } // unexpected: check the file from now on
                return unchanged && !state.disabled
            }
            guard count > 0 else { return false }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let nameStart = offset + MemoryLayout<inotify_event>.size
                let nameLength = Int(event.len)
                if event.mask & UInt32(IN_Q_OVERFLOW | IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF | IN_UNMOUNT) != 0 {
                    // Events may be lost or the watch is gone: check now, watch again next time.
                    unchanged = false
                    if event.mask & UInt32(IN_Q_OVERFLOW) == 0 { Self.unwatch(&state) }
                } else if nameLength > 0, Self.name(in: buffer + nameStart, length: nameLength) == fileName {
                    unchanged = false
                }
                offset = nameStart + nameLength
            }
        }
    }

    /// The event's name: NUL-padded to `length` bytes.
    private static func name(in pointer: UnsafeMutableRawPointer, length: Int) -> [UInt8] {
        let bytes = UnsafeBufferPointer(start: pointer.assumingMemoryBound(to: UInt8.self), count: length)
        return Array(bytes.prefix { $0 != 0 })
    }

    /// A store's `load(ifChangedSince:)` through this watch: nil at once when nothing was reported
    /// (and a stamp is held); else the file's `current` stamp, and `read` when it differs. The
    /// watch is asked first even without a stamp: it must predate the version about to be read.
    /// When the check or the read fails, the next call checks again.
    package func load(
        ifChangedSince stamp: TokenCacheStamp?, current: () throws(SetupError) -> TokenCacheStamp,
        read: (TokenCacheStamp) throws(SetupError) -> TokenCacheSnapshot
    ) throws(SetupError) -> TokenCacheSnapshot? {
        let quiet = isUnchangedSinceLastCheck()
        if stamp != nil, quiet { return nil }
        do {
            let now = try current()
            if let stamp, stamp == now { return nil }
            return try read(now)
        } catch {
            forgetLastCheck()
            throw error
        }
    }

    /// Makes the next check answer false: for a reader whose check of the file failed after this
    /// one said it changed.
    package func forgetLastCheck() {
        state.withLock { Self.unwatch(&$0) }
    }

    private static func unwatch(_ state: inout State) {
        if state.watch >= 0 { inotify_rm_watch(state.descriptor, state.watch) }
        state.watch = -1
    }

    private static func stop(_ state: inout State) {
        unwatch(&state)
        state.disabled = true
    }

    /// Network and FUSE file systems (sshfs and the like): another machine, or a daemon, may write
    /// without an event here.
    static func isRemote(_ type: String) -> Bool {
        let remote: Set<String> = ["nfs", "nfs4", "cifs", "smb3", "smbfs", "ceph", "afs", "9p", "glusterfs", "lustre", "gpfs", "fuse"]
        return remote.contains(type) || type.hasPrefix("fuse.")
    }

    /// The type of the file system holding `path` (resolved): the longest mount point of
    /// `/proc/self/mounts` that contains it. Empty when unknown. Works on the bytes (a fresh
    /// process spent about 0.4 ms here splitting the table with `String` and Foundation: BENCHMARKS.md,
    /// "fresh process").
    static func fileSystemType(of path: String, mounts: String? = mountTable()) -> String {
        guard var mounts else { return "" }
        let target = Array(path.utf8)
        let slash = UInt8(ascii: "/")
        return mounts.withUTF8 { table in
            var best: (length: Int, type: Slice<UnsafeBufferPointer<UInt8>>)?
            for line in table.split(separator: UInt8(ascii: "\n")) {
                let fields = line.split(separator: UInt8(ascii: " "), maxSplits: 3)
                guard fields.count >= 3 else { continue }
                // Spaces and the like in mount points are written as octal escapes (`\040`).
                let point = Self.unescapingSpaces(fields[1])
                let contains =
                    point == [slash] || target == point
                    || (target.count > point.count && target.starts(with: point) && target[point.count] == slash)
                if contains, point.count > best?.length ?? -1 { best = (point.count, fields[2]) }
            }
            return best.map { String(decoding: $0.type, as: UTF8.self) } ?? ""
        }
    }

    /// A mount point's bytes with each `\040` turned back into a space.
    private static func unescapingSpaces(_ field: Slice<UnsafeBufferPointer<UInt8>>) -> [UInt8] {
        let escape = Array("\\040".utf8)
        guard field.contains(escape[0]) else { return Array(field) }
        var out: [UInt8] = []
        var index = field.startIndex
        while index < field.endIndex {
            if field[index...].starts(with: escape) {
                out.append(UInt8(ascii: " "))
                index += escape.count
            } else {
                out.append(field[index])
                index += 1
            }
        }
        return out
    }

    /// `/proc/self/mounts` as text, read with plain `read` calls; nil when it cannot be read.
    static func mountTable(path: String = "/proc/self/mounts") -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(contentsOf: chunk[..<count])
        }
    }
}
