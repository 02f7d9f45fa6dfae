import Foundation
import NativeAuthTesting
import TestSupport
import Testing

@testable import MSAL

/// The cached look-up no longer `stat`s the file on every call (BENCHMARKS.md, "Token cache and
/// emulator targets"), yet a refresh or a sign-out written by another process is seen by the very
/// next call in this one.
@Suite(.tags(.concurrency)) struct CacheVisibilityTests {
    static let todo = "api://contoso/todolist/ToDoList.Read"

    private func signedIn(_ file: URL) async throws -> (Harness, MSALNativeAuthUserAccountResult) {
        let h = try Harness { $0.tokenCacheLocation = .file(file) }
        h.expectStart(challenge: .json(200, Fixture.passwordChallenge))
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody(scope: Self.todo)))
        let parameters = MSALNativeAuthSignInParameters(username: Fixture.username)
        parameters.password = Fixture.password
        guard case .completed(let account) = try await h.app.signIn(parameters: parameters) else { throw UnexpectedOutcome("no sign-in") }
        // Twice: the second call is the steady state (served from the remembered answer).
        #expect(try await token(account) == "AT-secret-value")
        #expect(try await token(account) == "AT-secret-value")
        return (h, account)
    }

    /// Look-ups until the directory watch is up (it is set up only after
    /// `CacheFileWatch.checksBeforeWatching` checks answered by `stat`).
    private func untilWatched(_ h: Harness, _ account: MSALNativeAuthUserAccountResult) async throws {
        for _ in 0...CacheFileWatch.checksBeforeWatching where !h.app.environment.cache.watchesStorage {
            #expect(try await token(account) == "AT-secret-value")
        }
    }

    private func token(_ account: MSALNativeAuthUserAccountResult) async throws -> String {
        let parameters = MSALNativeAuthGetAccessTokenParameters()
        parameters.scopes = [Self.todo]
        return try await account.getAccessToken(parameters: parameters).accessToken
    }

    private func stress(_ arguments: [String]) async throws {
        let result = try await ChildProcess.run(TokenCacheProcessTests.stressTool.path, arguments, limit: 120)
        try #require(result.status == 0, "msal-cache-stress \(arguments): \(result.stderr)")
    }

    private func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("msal-visibility-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// By rename (this SDK, MSAL for Python's writers) and in place (msal-extensions' file persistence).
    @Test(arguments: ["set-secrets", "in-place"])
    func aRefreshWrittenByAnotherProcessIsServedByTheNextCall(_ how: String) async throws {
        let folder = try directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("token_cache.json")
        let (h, account) = try await signedIn(file)
        try await untilWatched(h, account)
        #expect(h.app.environment.cache.watchesStorage, "the look-ups rely on the directory watch here, not on stat")

        let requests = h.stub.receivedRequests.count
        try await stress([how, file.path, "written-by-another-process"])
        #expect(try await token(account) == "written-by-another-process")
        #expect(h.stub.receivedRequests.count == requests, "no request: the other process's token is served")
    }

    @Test func aSignOutInAnotherProcessIsSeenByTheNextCall() async throws {
        let folder = try directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("token_cache.json")
        let (h, account) = try await signedIn(file)

        try await stress(["clear", file.path])
        await #expect(throws: RetrieveAccessTokenError.self, "the token signed out elsewhere is not served") { try await token(account) }
        #expect(h.app.getNativeAuthUserAccount() == nil)
    }

    /// A symbolic link stands for its target: the target is written (the link stays) and watched.
    @Test func aCacheReachedThroughASymbolicLinkIsTheTarget() async throws {
        let folder = try directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let real = folder.appendingPathComponent("elsewhere/token_cache.json")
        try FileManager.default.createDirectory(at: real.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: real)
        let link = folder.appendingPathComponent("token_cache.json")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
        let (h, account) = try await signedIn(link)
        try await untilWatched(h, account)
        #expect(h.app.environment.cache.watchesStorage)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == real.path, "the link is still a link")
        #expect(String(decoding: try Data(contentsOf: real), as: UTF8.self).contains("AT-secret-value"), "the target was written")

        try await stress(["set-secrets", real.path, "through-the-link"])
        #expect(try await token(account) == "through-the-link")
    }

    /// A cache on `file` (one account, two scope sets written there), and a look-up of one of its
    /// tokens' secrets.
    private func lookUps(_ file: URL, storage: FileTokenCacheStorage) throws -> () -> String? {
        try TokenCacheLookupCopyTests.cacheText(accounts: 1, scopes: 2).write(to: file)
        let cache = TokenCache(
            storage: storage, clientId: TokenCacheLookupCopyTests.clientId, authority: TokenCacheLookupCopyTests.authority,
            logger: MSALLoggerConfig())
        let valid = Date(timeIntervalSince1970: 1_800_000_000)
        return {
            cache.accessToken(
                homeAccountId: "uid0.utid", scopes: ScopeSet(["api://contoso/api1/Data.Read"]), validAt: valid, requestedScopes: [])?
                .secret
        }
    }

    /// The same with and without the watch (the `stat` fallback), on a large cache (its look-up
    /// copy leaves the secrets in the file) and a small one.
    @Test(arguments: [true, false], [0, 1 << 30])
    func anotherProcessesRefreshIsSeenWithAndWithoutTheWatch(watch: Bool, copyFrom: Int) async throws {
        let folder = try directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("token_cache.json")
        let storage = FileTokenCacheStorage(url: file, secretsInFileFrom: copyFrom, watchDirectory: watch)
        let secret = try lookUps(file, storage: storage)
        for _ in 0...CacheFileWatch.checksBeforeWatching { #expect(secret()?.hasPrefix("secret/0/1") == true) }
        #expect(storage.isWatched == watch)
        try await stress(["set-secrets", file.path, "refreshed-elsewhere"])
        #expect(secret() == "refreshed-elsewhere")
        try await stress(["clear", file.path])
        #expect(secret() == nil)
    }

    /// A process that ends after a few look-ups (a command printing one token) never sets up the
    /// watch, whose removal at exit can cost it milliseconds; its look-ups `stat` the file, and so
    /// still see another process's refresh at once. A longer-lived one sets it up.
    @Test func theWatchIsSetUpOnlyAfterSomeLookUpsWhichStatTheFileMeanwhile() async throws {
        let folder = try directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("token_cache.json")
        let storage = FileTokenCacheStorage(url: file)
        let secret = try lookUps(file, storage: storage)
        #expect(secret()?.hasPrefix("secret/0/1") == true)
        try await stress(["set-secrets", file.path, "refreshed-before-the-watch"])
        #expect(secret() == "refreshed-before-the-watch", "seen through stat")
        #expect(!storage.isWatched)
        for _ in 0...CacheFileWatch.checksBeforeWatching where !storage.isWatched { _ = secret() }
        #expect(storage.isWatched)
        try await stress(["set-secrets", file.path, "refreshed-with-the-watch"])
        #expect(secret() == "refreshed-with-the-watch")
    }

    @Test func noWatchBeforeTheLookUpsThatPayForIt() throws {
        let folder = try directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let watch = CacheFileWatch(path: folder.appendingPathComponent("token_cache.json").path)
        for _ in 0..<CacheFileWatch.checksBeforeWatching {
            #expect(!watch.isUnchangedSinceLastCheck(), "answered by the caller's stat")
            #expect(!watch.isWatching)
        }
        #expect(!watch.isUnchangedSinceLastCheck(), "the first check with the watch still asks for a stat")
        #expect(watch.isWatching)
        #expect(watch.isUnchangedSinceLastCheck(), "then nothing changed")
    }

    /// The mount table as read with plain `read` calls is the file's text.
    @Test func theMountTableIsReadWhole() throws {
        let table = try #require(CacheFileWatch.mountTable())
        #expect(table == (try String(contentsOfFile: "/proc/self/mounts", encoding: .utf8)))
        #expect(CacheFileWatch.fileSystemType(of: "/") != "")
        #expect(CacheFileWatch.mountTable(path: "/nonexistent/mounts") == nil)
    }

    @Test func remoteFileSystemsAreNotWatched() {
        let mounts = """
            /dev/root / ext4 rw 0 0
            server:/export /home/ada nfs4 rw 0 0
            sshfs#ada@host: /mnt/my\\040files fuse.sshfs rw 0 0
            tmpfs /tmp tmpfs rw 0 0
            """
        #expect(CacheFileWatch.fileSystemType(of: "/home/ada/.local/share/x", mounts: mounts) == "nfs4")
        #expect(CacheFileWatch.fileSystemType(of: "/home/adam/x", mounts: mounts) == "ext4")
        #expect(CacheFileWatch.fileSystemType(of: "/mnt/my files/cache", mounts: mounts) == "fuse.sshfs")
        #expect(CacheFileWatch.fileSystemType(of: "/tmp/x", mounts: mounts) == "tmpfs")
        #expect(CacheFileWatch.fileSystemType(of: "/mnt/my files", mounts: mounts) == "fuse.sshfs")
        #expect(CacheFileWatch.fileSystemType(of: "/mnt/my", mounts: mounts) == "ext4")
        #expect(CacheFileWatch.fileSystemType(of: "/home/ada", mounts: nil) == "")
        #expect(CacheFileWatch.isRemote("nfs4") && CacheFileWatch.isRemote("fuse.sshfs") && CacheFileWatch.isRemote("cifs"))
        #expect(!CacheFileWatch.isRemote("ext4") && !CacheFileWatch.isRemote("tmpfs") && !CacheFileWatch.isRemote("btrfs"))
    }
}
