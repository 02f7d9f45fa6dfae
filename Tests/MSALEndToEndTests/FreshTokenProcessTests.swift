import Foundation
import TestSupport
import Testing

@testable import MSAL
@testable import NativeAuthEmulator

/// `msal-fresh-token` (Benchmarks/msal-fresh-token), a fresh process that prints one token through
/// the SDK, against the live emulator: a cached token, then an expired one refreshed over HTTP.
/// Also its fast-start build (`--static-swift-stdlib`, libcurl loaded at the first request by
/// Sources/LazyLibcurl), which scripts/test builds into .build/static and names in
/// MSAL_FAST_START_BUILD.
@Suite struct FreshTokenProcessTests {
    typealias H = EmulatorHarness
    static let todo = "api://emulator/todolist/ToDoList.Read"

    /// A signed-in cache file for ada with a token for `todo`, and the server.
    private func signedIn() async throws -> (server: EmulatorServer, cache: URL, token: String) {
        let server = try LiveEmulator.start()
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("msal-fresh-\(UUID().uuidString)/token_cache.json")
        let config = MSALNativeAuthPublicClientApplicationConfig(
            clientId: H.passwordApp, authority: try MSALCIAMAuthority(url: URL(string: server.authority)!),
            challengeTypes: [.OOB, .password])
        config.tokenCacheLocation = .file(cache)
        let parameters = MSALNativeAuthSignInParameters(username: H.ada)
        parameters.password = H.adaPassword
        parameters.scopes = [Self.todo]
        guard
            case .completed(let account) = try await MSALNativeAuthPublicClientApplication(nativeAuthConfiguration: config).signIn(
                parameters: parameters)
        else { throw EndToEndFailure("sign-in did not complete") }
        let tokens = MSALNativeAuthGetAccessTokenParameters()
        tokens.scopes = [Self.todo]
        return (server, cache, try await account.getAccessToken(parameters: tokens).accessToken)
    }

    /// Runs the probe on `cache`; its exit status, standard output and standard error.
    private func probe(_ program: URL, _ server: EmulatorServer, _ cache: URL, environment: [String: String] = [:]) throws -> (
        status: Int32, output: String, errors: String
    ) {
        let result = try ChildProcess.runBlocking(
            program.path, [cache.path, H.passwordApp, server.authority, Self.todo],
            environment: ProcessInfo.processInfo.environment.merging(environment) { _, new in new }, limit: 120)
        return (result.status, result.stdout.trimmingCharacters(in: .whitespacesAndNewlines), result.stderr)
    }

    /// Makes every access token in the file expired, as time passing would.
    private func expireAccessTokens(_ cache: URL) throws {
        var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: cache)) as? [String: Any])
        var tokens = try #require(document["AccessToken"] as? [String: [String: Any]])
        let past = String(Int(Date().timeIntervalSince1970) - 60)
        for key in tokens.keys {
            tokens[key]?["expires_on"] = past
            tokens[key]?["extended_expires_on"] = past
        }
        document["AccessToken"] = tokens
        try JSONSerialization.data(withJSONObject: document).write(to: cache)
    }

    private func refreshGrants(_ server: EmulatorServer) async throws -> Int {
        let (_, data) = try await LiveEmulator.get(server.baseURL + "/_emulator/requests")
        let log = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        return log.filter { ($0["fields"] as? [String: String])?["grant_type"] == "refresh_token" }.count
    }

    /// Where `msal-fresh-token` is (the debug build next to the test bundle).
    static let ordinaryBuild = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("msal-fresh-token")

    static var fastStartBuild: URL? {
        ProcessInfo.processInfo.environment["MSAL_FAST_START_BUILD"].map {
            URL(fileURLWithPath: $0).appendingPathComponent("msal-fresh-token")
        }
    }

    @Test func printsTheCachedTokenThenRefreshesAnExpiredOneOverHTTP() async throws {
        let (server, cache, token) = try await signedIn()
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: cache.deletingLastPathComponent())
        }
        let cached = try probe(Self.ordinaryBuild, server, cache)
        #expect(cached.status == 0 && cached.output == token, "\(cached.errors)")
        #expect(try await refreshGrants(server) == 0)

        try expireAccessTokens(cache)
        let refreshed = try probe(Self.ordinaryBuild, server, cache)
        #expect(refreshed.status == 0, "\(refreshed.errors)")
        #expect(!refreshed.output.isEmpty && refreshed.output != token, "a new token")
        #expect(try await refreshGrants(server) == 1)
        #expect(try probe(Self.ordinaryBuild, server, cache).output == refreshed.output, "the new token was stored")
    }

    /// The fast-start build maps no libcurl to print a cached token (the dynamic loader's own log,
    /// LD_DEBUG=files, names every object it loads), and loads it at the refresh's first request.
    @Test(
        .enabled(
            if: fastStartBuild.map { FileManager.default.isExecutableFile(atPath: $0.path) } ?? false,
            "needs MSAL_FAST_START_BUILD naming a folder with msal-fresh-token built with --static-swift-stdlib; scripts/test builds .build/static and sets it"
        ))
    func theFastStartBuildLoadsLibcurlOnlyWhenItSendsARequest() async throws {
        let program = try #require(Self.fastStartBuild)
        let (server, cache, token) = try await signedIn()
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: cache.deletingLastPathComponent())
        }
        let cached = try probe(program, server, cache, environment: ["LD_DEBUG": "files"])
        #expect(cached.status == 0 && cached.output == token)
        #expect(cached.errors.contains("file=libc.so.6"), "the loader's log is there")
        #expect(!cached.errors.contains("libcurl"), "no libcurl for a cached token")

        try expireAccessTokens(cache)
        let refreshed = try probe(program, server, cache, environment: ["LD_DEBUG": "files"])
        #expect(refreshed.status == 0 && !refreshed.output.isEmpty && refreshed.output != token)
        #expect(refreshed.errors.contains("file=libcurl.so.4 [0];  dynamically loaded by"), "loaded by dlopen for the refresh")
        #expect(try await refreshGrants(server) == 1)
    }

    /// libcurl hidden by a private mount (a machine without it): the fast-start build, which sets no
    /// status of its own, ends at the refresh's first request with one line naming the package and
    /// 127, the dynamic loader's status for a missing library (Sources/LazyLoading/LazyLoading.c),
    /// not a status of native-auth's.
    @Test(
        .enabled(
            if: (fastStartBuild.map { FileManager.default.isExecutableFile(atPath: $0.path) } ?? false) && HiddenLibrary.canHide,
            "needs MSAL_FAST_START_BUILD (scripts/test sets it) and `unshare --mount` (root, or user namespaces) to hide libcurl"))
    func withoutLibcurlTheFastStartBuildEndsWithTheLoadersStatus() async throws {
        let program = try #require(Self.fastStartBuild)
        let library = try #require(HiddenLibrary.path("libcurl.so.4"))
        let (server, cache, _) = try await signedIn()
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: cache.deletingLastPathComponent())
        }
        try expireAccessTokens(cache)
        let result = try ChildProcess.runBlocking(
            HiddenLibrary.unshare,
            HiddenLibrary.arguments(hiding: library) + [program.path, cache.path, H.passwordApp, server.authority, Self.todo], limit: 120)
        #expect(result.status == 127, "\(result)")
        #expect(
            result.stderr.hasPrefix("msal-fresh-token: cannot load libcurl.so.4") && result.stderr.contains("apt install libcurl4"),
            "\(result)")
        #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
        #expect(try await refreshGrants(server) == 0)
    }
}
