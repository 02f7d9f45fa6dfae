import Foundation
import TestSupport
import Testing

@testable import MSAL

#if canImport(Glibc)
    import Glibc
#endif

/// The persistent token cache shared by several processes: concurrent writers, a writer killed
/// mid-write, a full disk, a file another user cannot read (Tests/Tools/msal-cache-stress).
@Suite(.tags(.concurrency)) struct TokenCacheProcessTests {
    typealias TemporaryDirectory = TokenCacheTests.TemporaryDirectory

    static var stressTool: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("msal-cache-stress")
    }

    @Test func processesWritingAtOnceLoseNothing() async throws {
        let directory = try TemporaryDirectory()
        let processes = try (0..<4).map { index in
            try ChildProcess(Self.stressTool.path, ["write", directory.cacheFile.path, "writer\(index)", "40"])
        }
        for process in processes {
            #expect(await process.exitStatus(within: 120) == 0)
        }
        let snapshot = try #require(try FileTokenCacheStorage(url: directory.cacheFile).load(ifChangedSince: nil))
        #expect(snapshot.document[.accessToken].count == 160)
        for index in 0..<4 {
            #expect(snapshot.document[.accessToken].keys.filter { $0.hasPrefix("writer\(index)-") }.count == 40)
        }
    }

    @Test func aProcessKilledMidWriteLeavesALoadableFile() async throws {
        let directory = try TemporaryDirectory()
        var versions = Set<String>()
        func version() throws -> String? {
            try FileTokenCacheStorage(url: directory.cacheFile).load(ifChangedSince: nil)?.document[.accessToken]["version"]?["secret"]?
                .stringValue
        }
        for round in 0..<8 {
            let before = try version()
            let process = try ChildProcess(Self.stressTool.path, ["churn", directory.cacheFile.path])
            // Killed only once it has written (a loaded machine can take longer to start it than
            // any fixed pause), then after a pause that varies by round, mid-write or between writes.
            #expect(await waitUntil(seconds: 60) { (try? version()).flatMap { $0 } != before }, "round \(round): no write")
            try await Task.sleep(nanoseconds: UInt64(30_000 + (round * 17_000) % 90_000) * 1000)
            process.signal(SIGKILL)
            _ = await process.exitStatus(within: 60)
            let snapshot = try #require(try FileTokenCacheStorage(url: directory.cacheFile).load(ifChangedSince: nil))
            #expect(snapshot.problem == nil, "round \(round): \(snapshot.problem?.message ?? "")")
            let version = try #require(snapshot.document[.accessToken]["version"]?["secret"]?.stringValue)
            versions.insert(version)
        }
        #expect(!versions.isEmpty)
    }

    @Test func aFullDiskFailsTheWriteCleanlyAndKeepsTheOldFile() async throws {
        let directory = try TemporaryDirectory()
        try #require(
            try await ChildProcess.run(Self.stressTool.path, ["write", directory.cacheFile.path, "kept", "5"], limit: 120).status == 0)
        let before = try Data(contentsOf: directory.cacheFile)

        let full = try await ChildProcess.run(Self.stressTool.path, ["full-disk", directory.cacheFile.path, "65536"], limit: 120)
        let message = full.stderr
        #expect(full.status == 3, "the write must fail with an error, not a crash: \(message)")
        #expect(message.contains("Cannot write the token cache"), "\(message)")
        #expect(try Data(contentsOf: directory.cacheFile) == before, "the old file is untouched")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.cacheFile.deletingLastPathComponent().path)
        #expect(!leftovers.contains { $0.contains(".tmp-") }, "no temporary file left: \(leftovers)")
        let snapshot = try #require(try FileTokenCacheStorage(url: directory.cacheFile).load(ifChangedSince: nil))
        #expect(snapshot.document[.accessToken].count == 5 && snapshot.problem == nil)
    }

    /// Root (this machine, CI) reads any file, so the tool runs as `nobody` to meet a permission error.
    @Test(
        .enabled(
            if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
            "needs root and setpriv to drop to an unprivileged user"))
    func anUnreadableFileIsReportedAndNeverReplaced() async throws {
        let directory = try TemporaryDirectory()
        chmod(directory.url.path, 0o777)
        try #require(
            try await ChildProcess.run(Self.stressTool.path, ["write", directory.cacheFile.path, "owner", "3"], limit: 120).status == 0)
        chmod(directory.cacheFile.deletingLastPathComponent().deletingLastPathComponent().path, 0o777)
        chmod(directory.cacheFile.deletingLastPathComponent().path, 0o777)
        chmod(directory.cacheFile.path, 0o600) // root's file: unreadable to nobody
        let before = try Data(contentsOf: directory.cacheFile)

        let intruder = try await ChildProcess.run(
            "/usr/bin/setpriv",
            ["--reuid=65534", "--regid=65534", "--clear-groups", Self.stressTool.path, "write", directory.cacheFile.path, "other", "1"],
            limit: 120)
        let message = intruder.stderr
        #expect(intruder.status == 1, "a clear failure, not a crash: \(message)")
        #expect(message.contains("Permission denied"), "\(message)")
        #expect(try Data(contentsOf: directory.cacheFile) == before, "the unreadable file is neither replaced nor emptied")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.cacheFile.deletingLastPathComponent().path)
        #expect(!files.contains { $0.contains(".corrupt-") }, "an unreadable file is not set aside as corrupt: \(files)")
    }
}
