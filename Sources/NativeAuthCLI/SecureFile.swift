import Foundation
import MSAL

#if canImport(Glibc)
    import Glibc
#endif

/// Files that hold secrets (the saved sign-in, the emulator's files): 0600 in directories 0700
/// owned by the user, written whole through a temporary file and `rename`, never through a link.
enum SecureFile {
    /// Creates `path` and its missing parents with mode 0700. An existing directory of another
    /// user is refused; one of ours with a wider mode is narrowed to 0700.
    /// Returns the directories it created, deepest last (for `removeCreated` after a failed start).
    @discardableResult
    static func makeDirectory(_ path: String) throws(CLIError) -> [String] {
        var missing: [String] = []
        var current = path
        while !current.isEmpty, current != "/", !isDirectory(current) {
            missing.append(current)
            current = (current as NSString).deletingLastPathComponent
        }
        for directory in missing.reversed() where mkdir(directory, 0o700) != 0 && errno != EEXIST {
            throw CLIError(.configuration, "cannot create the directory \(directory): \(String(cString: strerror(errno)))")
        }
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw CLIError(.configuration, "\(path) is not a directory")
        }
        guard info.st_uid == getuid() else {
            throw CLIError(.configuration, "the directory \(path) belongs to another user; refusing to keep tokens there")
        }
        if info.st_mode & 0o077 != 0, chmod(path, 0o700) != 0 {
            throw CLIError(.configuration, "cannot make \(path) private (mode 0700): \(String(cString: strerror(errno)))")
        }
        return missing.reversed()
    }

    /// Removes `directories` (as `makeDirectory` returned them), deepest first, and `files` in the
    /// deepest one, so that a command that failed before it stored anything leaves the home as it
    /// found it. A directory that is not empty stays (`rmdir` refuses it).
    static func removeCreated(_ directories: [String], files: [String]) {
        guard let deepest = directories.last else { return }
        for file in files { unlink(deepest + "/" + file) }
        for directory in directories.reversed() { rmdir(directory) }
    }

    /// Writes `data` to `path` (mode 0600), replacing it whole (`AtomicFile`); the directory must exist.
    static func write(_ data: Data, to path: String) throws(CLIError) {
        do {
            try AtomicFile.write(data, to: path)
        } catch {
            let action = error.step == .create ? "create" : "write"
            throw CLIError(.failure, "cannot \(action) \(error.step == .create ? error.path : path): \(error.reason)")
        }
    }

    /// The file's bytes; nil when it does not exist. A link is not followed.
    static func read(_ path: String) throws(CLIError) -> Data? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw failure("read", path)
        }
        defer { close(descriptor) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = Glibc.read(descriptor, &buffer, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("read", path)
            }
            if count == 0 { return data }
            data.append(contentsOf: buffer[..<count])
        }
    }

    /// Removes the file; no error when it is not there.
    static func remove(_ path: String) {
        unlink(path)
    }

    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    private static func failure(_ action: String, _ path: String) -> CLIError {
        CLIError(.failure, "cannot \(action) \(path): \(String(cString: strerror(errno)))")
    }
}
