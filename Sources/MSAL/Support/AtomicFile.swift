import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A file replaced whole and never written in place: the token cache, its signal file and the
/// CLI's private files all go through `write(_:to:)`.
///
/// The bytes go to a new temporary file beside `path` (same directory, so `rename` cannot cross a
/// file system), created with `O_EXCL | O_NOFOLLOW` and mode 0600; the file is flushed with
/// `fsync`, renamed over `path`, and the directory is flushed so that the rename survives a crash.
/// A reader therefore sees the old file or the new one, never a mixture, and a reader holding the
/// old file open keeps reading the old bytes. On any failure the temporary file is removed and
/// `path` is untouched.
package enum AtomicFile {
    /// The step that failed.
    package enum Step: Sendable, Equatable {
        /// Creating the temporary file (`Failure.path` names it).
        case create
        /// Writing or flushing the temporary file (`Failure.path` names it).
        case write
        /// Renaming the temporary file over the target (`Failure.path` names the target).
        case replace
    }

    package struct Failure: Error, Sendable, Equatable {
        package let step: Step
        package let path: String
        /// The system's error code (`errno`).
        package let code: Int32

        package var reason: String { String(cString: strerror(code)) }
    }

    /// Replaces `path` by a file of mode 0600 holding `bytes`; the directory must exist.
    package static func write(_ bytes: some ContiguousBytes, to path: String) throws(Failure) {
        let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(temporary, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Failure(step: .create, path: temporary, code: errno) }
        var failed = writeAll(descriptor, bytes) ? 0 : errno
        if failed == 0, fsync(descriptor) != 0 { failed = errno }
        close(descriptor)
        guard failed == 0 else {
            unlink(temporary)
            throw Failure(step: .write, path: temporary, code: failed)
        }
        guard rename(temporary, path) == 0 else {
            let failure = Failure(step: .replace, path: path, code: errno)
            unlink(temporary)
            throw failure
        }
        let parent = (path as NSString).deletingLastPathComponent
        let directory = open(parent.isEmpty ? "." : parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
    }
}

/// Writes all of `bytes` to `descriptor`, carrying on after a short write or EINTR; false on an
/// error (`errno` says which), for example a full disk or a closed stdout.
package func writeAll(_ descriptor: Int32, _ bytes: some ContiguousBytes) -> Bool {
    bytes.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
            let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }
}
