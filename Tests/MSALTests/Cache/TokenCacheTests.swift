import Foundation
import MSAL
import NativeAuthTesting
import TestSupport
import Testing

@testable import MSAL

#if canImport(Glibc)
    import Glibc
#endif

/// The persistent token cache: restart, sign-out, account policy, file safety, interop.
@Suite(.tags(.concurrency)) struct TokenCacheTests {
    static let todo = "api://contoso/todolist/ToDoList.Read"

    final class TemporaryDirectory {
        let url: URL
        init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("msal-cache-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(at: url) }
        var cacheFile: URL { url.appendingPathComponent("nested/dir/token_cache.json") }
    }

    private func harness(_ file: URL, multiple: Bool = false) throws -> Harness {
        try Harness {
            $0.tokenCacheLocation = .file(file)
            $0.allowsMultipleAccounts = multiple
        }
    }

    private func signIn(_ h: Harness, uid: String = Fixture.uid, username: String = Fixture.username, scope: String = todo) async throws
        -> MSALNativeAuthUserAccountResult
    {
        try await h.signIn(uid: uid, username: username, scope: scope)
    }

    private func fileJSON(_ url: URL) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    @Test func aNewApplicationOnTheSameFileRestoresTheAccountAndItsTokens() async throws {
        let directory = try TemporaryDirectory()
        let first = try harness(directory.cacheFile)
        let original = try await signIn(first)

        let second = try harness(directory.cacheFile)
        let restored = try #require(second.app.getNativeAuthUserAccount())
        #expect(restored.account.username == Fixture.username)
        #expect(restored.account.identifier == original.account.identifier)
        #expect(restored.account.homeAccountId?.objectId == Fixture.uid)
        #expect(restored.idToken == original.idToken)
        #expect(restored.account.accountClaims?["name"] as? String == "Ada Lovelace")
        let parameters = MSALNativeAuthGetAccessTokenParameters()
        parameters.scopes = [Self.todo]
        #expect(try await restored.getAccessToken(parameters: parameters).accessToken == "AT-secret-value")
        #expect(second.stub.receivedRequests.isEmpty, "served from the file, no network")
    }

    @Test func directoryAndFileModes() async throws {
        let directory = try TemporaryDirectory()
        let h = try harness(directory.cacheFile)
        _ = try await signIn(h)
        func mode(_ path: String) throws -> mode_t {
            var info = stat()
            try #require(stat(path, &info) == 0)
            return info.st_mode & 0o777
        }
        #expect(try mode(directory.cacheFile.path) == 0o600)
        #expect(try mode(directory.cacheFile.path + ".lock") == 0o600)
        #expect(try mode(directory.cacheFile.deletingLastPathComponent().path) == 0o700)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.cacheFile.deletingLastPathComponent().path)
        #expect(Set(leftovers) == ["token_cache.json", "token_cache.json.lock"], "no temporary files left behind")
    }

    @Test func theFileUsesTheUnifiedSchema() async throws {
        let directory = try TemporaryDirectory()
        let h = try harness(directory.cacheFile)
        _ = try await signIn(h)
        let json = try fileJSON(directory.cacheFile)
        let home = "\(Fixture.uid).\(Fixture.utid)"
        let at = try #require(
            (json["AccessToken"] as? [String: [String: String]])?[
                "\(home)-contoso.ciamlogin.com-accesstoken-\(Fixture.clientId)-contoso.onmicrosoft.com-api://contoso/todolist/todolist.read"
            ])
        #expect(at["target"] == Self.todo && at["realm"] == "contoso.onmicrosoft.com" && at["credential_type"] == "AccessToken")
        #expect(at["expires_on"] == String(Int(h.clock.now().timeIntervalSince1970) + 3599))
        #expect((json["RefreshToken"] as? [String: Any])?["\(home)-contoso.ciamlogin.com-refreshtoken-\(Fixture.clientId)--"] != nil)
        #expect(
            (json["IdToken"] as? [String: Any])?["\(home)-contoso.ciamlogin.com-idtoken-\(Fixture.clientId)-contoso.onmicrosoft.com-"]
                != nil)
        let account = try #require(
            (json["Account"] as? [String: [String: String]])?["\(home)-contoso.ciamlogin.com-contoso.onmicrosoft.com"])
        #expect(
            account["username"] == Fixture.username && account["authority_type"] == "MSSTS" && account["local_account_id"] == Fixture.uid)
        #expect((json["AppMetadata"] as? [String: Any])?["appmetadata-contoso.ciamlogin.com-\(Fixture.clientId)"] != nil)
    }

    @Test func signOutRemovesTheAccountAndItsTokens() async throws {
        let directory = try TemporaryDirectory()
        let h = try harness(directory.cacheFile)
        let account = try await signIn(h)
        account.signOut()
        #expect(h.app.getNativeAuthUserAccount() == nil)
        let json = try fileJSON(directory.cacheFile)
        for section in ["AccessToken", "RefreshToken", "IdToken", "Account"] {
            #expect((json[section] as? [String: Any])?.isEmpty == true, "\(section)")
        }
        #expect(try harness(directory.cacheFile).app.getNativeAuthUserAccount() == nil)
    }

    @Test func oneAccountPerClientByDefault() async throws {
        let h = try Harness()
        _ = try await signIn(h)
        _ = try await signIn(h, uid: "bbbbbbbb-0000-0000-0000-000000000002", username: "bob@contoso.com")
        let accounts = try h.app.allAccounts()
        #expect(accounts.map(\.username) == ["bob@contoso.com"])
        #expect(h.app.getNativeAuthUserAccount()?.account.username == "bob@contoso.com")
    }

    @Test func severalAccountsWhenAllowed() async throws {
        let h = try Harness {
            $0.tokenCacheLocation = .inMemory
            $0.allowsMultipleAccounts = true
        }
        _ = try await signIn(h)
        try await h.clock.sleep(seconds: 5)
        _ = try await signIn(h, uid: "bbbbbbbb-0000-0000-0000-000000000002", username: "bob@contoso.com")
        #expect(Set(try h.app.allAccounts().compactMap(\.username)) == [Fixture.username, "bob@contoso.com"])
        #expect(h.app.getNativeAuthUserAccount()?.account.username == "bob@contoso.com", "the most recent first")
        let ada = try h.app.account(forUsername: Fixture.username.uppercased())
        #expect(ada.identifier == "\(Fixture.uid).\(Fixture.utid)")
        #expect(try h.app.account(forIdentifier: "\(Fixture.uid).\(Fixture.utid)").username == Fixture.username)
        #expect(thrownError { _ = try h.app.account(forUsername: "nobody@contoso.com") }?.msalInternalCode == .internalErrorAccountRequired)
        try h.app.remove(ada)
        #expect(try h.app.allAccounts().compactMap(\.username) == ["bob@contoso.com"])
    }

    @Test(arguments: [TokenCacheLocationKind.inMemory, .file, .entryStore])
    func aUserNamedByIdIsThatUserWhoeverSignedInLast(location: TokenCacheLocationKind) async throws {
        let directory = try TemporaryDirectory()
        let h = try Harness {
            switch location {
            case .inMemory: $0.tokenCacheLocation = .inMemory
            case .file: $0.tokenCacheLocation = .file(directory.cacheFile)
            case .entryStore: $0.tokenCacheLocation = .entryStore(InMemoryTokenCacheEntryStore(), checkInterval: 0)
            }
            $0.allowsMultipleAccounts = true
        }
        let bob = "bbbbbbbb-0000-0000-0000-000000000002"
        _ = try await signIn(h)
        try await h.clock.sleep(seconds: 5)
        _ = try await signIn(h, uid: bob, username: "bob@contoso.com")
        #expect(h.app.getNativeAuthUserAccount()?.account.username == "bob@contoso.com", "the most recent")
        // Named by id (any case), each user is itself, never the most recent.
        let ada = try await h.app.nativeAuthUserAccount(forIdentifier: "\(Fixture.uid).\(Fixture.utid)".uppercased())
        #expect(ada.account.username == Fixture.username)
        #expect(ada.account.identifier == "\(Fixture.uid).\(Fixture.utid)")
        #expect(try await h.app.nativeAuthUserAccount(forIdentifier: "\(bob).\(Fixture.utid)").account.username == "bob@contoso.com")
        // Another user's id, a prefix of one, an unknown one: not found.
        for unknown in ["\(Fixture.uid)", "\(bob).other-tenant", "nobody.\(Fixture.utid)", ""] {
            #expect(
                thrownError { _ = try h.app.nativeAuthUserAccount(forIdentifier: unknown) }?.msalInternalCode
                    == .internalErrorAccountRequired)
        }
        // Signed out, it is gone by id too; the other stays.
        ada.signOut()
        #expect(thrownError { _ = try h.app.nativeAuthUserAccount(forIdentifier: "\(Fixture.uid).\(Fixture.utid)") } != nil)
        #expect(try await h.app.nativeAuthUserAccount(forIdentifier: "\(bob).\(Fixture.utid)").account.username == "bob@contoso.com")
    }

    enum TokenCacheLocationKind: Sendable { case inMemory, file, entryStore }

    @Test func aCorruptFileIsSetAsideAndTheCacheCarriesOn() async throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(at: directory.cacheFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("{ this is not json".utf8).write(to: directory.cacheFile)
        let h = try harness(directory.cacheFile)
        #expect(h.app.getNativeAuthUserAccount() == nil)
        let error = try #require(h.app.lastTokenCacheError)
        #expect(error.msalInternalCode == .internalErrorInvalidParameter && error.localizedDescription.contains("moved to"))
        #expect(h.log.text.contains("is not a valid token cache"))
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.cacheFile.deletingLastPathComponent().path)
        let backup = try #require(files.first { $0.hasPrefix("token_cache.json.corrupt-") })
        #expect(
            try String(contentsOfFile: directory.cacheFile.deletingLastPathComponent().appendingPathComponent(backup).path, encoding: .utf8)
                == "{ this is not json", "the user's data is kept")
        _ = try await signIn(h)
        #expect(try harness(directory.cacheFile).app.getNativeAuthUserAccount() != nil)
    }

    @Test func aCacheThatCannotBeWrittenStillSignsIn() async throws {
        let directory = try TemporaryDirectory()
        let blocker = directory.url.appendingPathComponent("file-not-dir")
        try Data("x".utf8).write(to: blocker)
        let h = try harness(blocker.appendingPathComponent("token_cache.json"))
        let result = try await signIn(h)
        #expect(result.account.username == Fixture.username)
        #expect(h.app.lastTokenCacheError != nil)
        #expect(thrownError { _ = try h.app.allAccounts() }?.domain == NSPOSIXErrorDomain)
    }

    @Test func aDirectoryWhereTheFileShouldBeIsReported() async throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(at: directory.cacheFile, withIntermediateDirectories: true)
        let h = try harness(directory.cacheFile)
        #expect(h.app.getNativeAuthUserAccount() == nil)
        #expect(h.app.lastTokenCacheError?.localizedDescription.contains("not a regular file") == true)
        _ = try await signIn(h)
        var isDirectory: ObjCBool = false
        #expect(
            FileManager.default.fileExists(atPath: directory.cacheFile.path, isDirectory: &isDirectory) && isDirectory.boolValue,
            "nothing of the user's is replaced")
    }

    /// The app's error carries the system's own code (ENOTDIR here), not a generic one.
    @Test func aFileWhereADirectoryShouldBeIsReportedWithItsErrno() throws {
        let directory = try TemporaryDirectory()
        let blocker = directory.url.appendingPathComponent("not-a-directory")
        try Data("x".utf8).write(to: blocker)
        let h = try harness(blocker.appendingPathComponent("token_cache.json"))
        #expect(h.app.getNativeAuthUserAccount() == nil)
        let error = try #require(h.app.lastTokenCacheError)
        #expect(error.domain == NSPOSIXErrorDomain)
        #expect(error.code == Int(ENOTDIR), "\(error)")
    }

    @Test func unknownFieldsAndSectionsSurvive() async throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(at: directory.cacheFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        let home = "\(Fixture.uid).\(Fixture.utid)"
        let accountKey = "\(home)-contoso.ciamlogin.com-contoso.onmicrosoft.com"
        let seeded: [String: Any] = [
            "Account": [
                accountKey: [
                    "home_account_id": home, "environment": "contoso.ciamlogin.com", "realm": "contoso.onmicrosoft.com",
                    "username": Fixture.username, "authority_type": "MSSTS", "future_field": "keep me",
                ]
            ],
            "FutureSection": ["k": ["v": 1]],
            "version": 2,
        ]
        try JSONSerialization.data(withJSONObject: seeded).write(to: directory.cacheFile)
        let h = try harness(directory.cacheFile)
        _ = try await signIn(h)
        let json = try fileJSON(directory.cacheFile)
        #expect(((json["Account"] as? [String: [String: Any]])?[accountKey]?["future_field"] as? String) == "keep me")
        #expect((json["FutureSection"] as? [String: [String: Int]])?["k"]?["v"] == 1)
        #expect(json["version"] as? Int == 2)
    }

    @Test func aCacheWrittenByMSALPythonLoads() async throws {
        let directory = try TemporaryDirectory()
        let fixture = try #require(Bundle.module.url(forResource: "msal-python-cache", withExtension: "json"))
        try FileManager.default.createDirectory(at: directory.cacheFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: fixture, to: directory.cacheFile)
        let h = try Harness {
            $0.clientId = "11111111-1111-4111-8111-111111111111"
            $0.tokenCacheLocation = .file(directory.cacheFile)
        }
        let account = try #require(h.app.getNativeAuthUserAccount())
        #expect(account.account.username == "ada@example.com")
        #expect(account.account.identifier == "a1a1a1a1-0000-4000-8000-000000000001.5c3b1c2e-8a4f-4f5e-9d7a-0e6b2a9c1d00")
        #expect(account.account.accountClaims?["name"] as? String == "Ada Lovelace")
        let parameters = MSALNativeAuthGetAccessTokenParameters()
        parameters.scopes = [Self.todo]
        #expect(try await account.getAccessToken(parameters: parameters).accessToken == "python-access-token")
        #expect(h.stub.receivedRequests.isEmpty)

        // A refresh rewrites the file; msal-python's own entries it does not touch stay as they were.
        h.stub.expect(
            path: "/oauth2/v2.0/token",
            reply: .json(
                200,
                [
                    "token_type": "Bearer", "scope": "api://contoso/profile/Profile.Read", "expires_in": 3600,
                    "access_token": "swift-access-token",
                    "refresh_token": "swift-refresh-token",
                    "client_info": Base64URL.encode(
                        Data(#"{"uid":"a1a1a1a1-0000-4000-8000-000000000001","utid":"5c3b1c2e-8a4f-4f5e-9d7a-0e6b2a9c1d00"}"#.utf8)),
                ]), check: { $0.formFields["refresh_token"] == "python-refresh-token" ? nil : "the python refresh token must be used" })
        parameters.scopes = ["api://contoso/profile/Profile.Read"]
        #expect(try await account.getAccessToken(parameters: parameters).accessToken == "swift-access-token")
        let json = try fileJSON(directory.cacheFile)
        #expect((json["AccessToken"] as? [String: Any])?.count == 2)
        #expect(((json["Account"] as? [String: [String: Any]])?.values.first?["account_source"] as? String) == "password")
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    @Test(
        .enabled(
            if: ProcessInfo.processInfo.environment["MSAL_PYTHON"] != nil,
            "needs MSAL_PYTHON, a python with the msal package; scripts/test provides it"))
    func msalPythonReadsACacheWrittenHere() async throws {
        let directory = try TemporaryDirectory()
        let h = try harness(directory.cacheFile)
        _ = try await signIn(h)
        let script = """
            import json, sys, msal
            cache = msal.SerializableTokenCache()
            cache.deserialize(open(sys.argv[1]).read())
            query = {"client_id": "\(Fixture.clientId)", "environment": "contoso.ciamlogin.com", "realm": "contoso.onmicrosoft.com",
                     "home_account_id": "\(Fixture.uid).\(Fixture.utid)"}
            ats = cache.find(msal.TokenCache.CredentialType.ACCESS_TOKEN, target=["\(Self.todo)"], query=query)
            rts = cache.find(msal.TokenCache.CredentialType.REFRESH_TOKEN, query={k: query[k] for k in ("client_id", "environment", "home_account_id")})
            accounts = cache.find(msal.TokenCache.CredentialType.ACCOUNT, query={"environment": "contoso.ciamlogin.com"})
            print(json.dumps({"at": [a["secret"] for a in ats], "rt": [r["secret"] for r in rts], "accounts": [a["username"] for a in accounts]}))
            """
        let output = try await run(ProcessInfo.processInfo.environment["MSAL_PYTHON"]!, ["-c", script, directory.cacheFile.path])
        let found = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: [String]])
        #expect(found["at"] == ["AT-secret-value"])
        #expect(found["rt"] == ["RT-secret-value"])
        #expect(found["accounts"] == [Fixture.username])
    }

    private func run(_ tool: String, _ arguments: [String]) async throws -> String {
        let result = try await ChildProcess.run(tool, arguments, limit: 120)
        try #require(result.status == 0, "\(tool) exited \(result.status): \(result.stderr)")
        return result.stdout
    }
}
