import Foundation
import Testing

@testable import MSAL

#if canImport(Glibc)
    import Glibc
#endif

/// The one writer of files replaced whole (Sources/MSAL/Support/AtomicFile.swift): the token cache,
/// its signal file and the CLI's private files go through it.
struct AtomicFileTests {
    /// A fresh directory under the system's temporary directory, removed with its contents.
    private final class Folder {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("atomic-file-\(UUID().uuidString)").path
        init() throws { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false) }
        deinit { try? FileManager.default.removeItem(atPath: path) }
        var names: [String] { (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] }
    }

    private func status(_ path: String) -> stat? {
        var info = stat()
        return lstat(path, &info) == 0 ? info : nil
    }

    private func contents(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func aNewFileIsPrivateAndHoldsTheBytesWithNothingElseLeft() throws {
        let folder = try Folder()
        let path = folder.path + "/secret"
        try AtomicFile.write(Data("token".utf8), to: path)
        #expect(contents(path) == "token")
        #expect(status(path).map { $0.st_mode & 0o777 } == 0o600)
        #expect(folder.names == ["secret"], "no temporary file left")
    }

    @Test func anExistingFileIsReplacedByANewOneNotRewrittenInPlace() throws {
        let folder = try Folder()
        let path = folder.path + "/cache.json"
        try #require(FileManager.default.createFile(atPath: path, contents: Data("old".utf8), attributes: [.posixPermissions: 0o644]))
        let before = try #require(status(path))
        // A reader that opened the old file keeps reading the old bytes.
        let reader = open(path, O_RDONLY | O_CLOEXEC)
        try #require(reader >= 0)
        defer { close(reader) }

        try AtomicFile.write(Data("new".utf8), to: path)

        #expect(contents(path) == "new")
        let after = try #require(status(path))
        #expect(after.st_ino != before.st_ino, "a new inode")
        #expect(after.st_mode & 0o777 == 0o600, "a wider file becomes private")
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = pread(reader, &buffer, buffer.count, 0)
        #expect(count >= 0 && String(decoding: buffer[..<max(count, 0)], as: UTF8.self) == "old")
    }

    @Test func aLinkAtThePathIsReplacedNotFollowed() throws {
        let folder = try Folder()
        let target = folder.path + "/elsewhere"
        try #require(FileManager.default.createFile(atPath: target, contents: Data("keep".utf8)))
        let path = folder.path + "/link"
        try #require(symlink(target, path) == 0)

        try AtomicFile.write(Data("secret".utf8), to: path)

        #expect(contents(target) == "keep", "the link's target is untouched")
        #expect(status(path).map { $0.st_mode & S_IFMT } == S_IFREG)
        #expect(contents(path) == "secret")
    }

    @Test func aMissingDirectoryFailsAtCreateNamingTheTemporaryFile() throws {
        let folder = try Folder()
        let path = folder.path + "/missing/secret"
        #expect {
            try AtomicFile.write(Data("x".utf8), to: path)
        } throws: { error in
            guard let failure = error as? AtomicFile.Failure else { return false }
            return failure.step == .create && failure.code == ENOENT && failure.path.hasPrefix(path + ".tmp-")
                && !failure.reason.isEmpty
        }
    }

    @Test func aFailedRenameLeavesThePathAndNoTemporaryFile() throws {
        let folder = try Folder()
        // A directory that is not empty cannot be replaced by a file.
        let path = folder.path + "/occupied"
        try FileManager.default.createDirectory(atPath: path + "/inside", withIntermediateDirectories: true)
        #expect {
            try AtomicFile.write(Data("x".utf8), to: path)
        } throws: { error in
            guard let failure = error as? AtomicFile.Failure else { return false }
            return failure.step == .replace && failure.path == path
        }
        #expect(folder.names == ["occupied"], "no temporary file left: \(folder.names)")
        #expect(status(path + "/inside").map { $0.st_mode & S_IFMT } == S_IFDIR)
    }
}
