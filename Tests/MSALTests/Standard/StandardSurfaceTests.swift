import Foundation
import MSAL
import NativeAuthTesting
import Testing

@testable import MSAL

/// The standard surface's accounts, sign-out and claims-challenge helper on the native application.
@Suite struct StandardSurfaceTests {
    /// A native sign-in of `username` with its own home account id.
    private func signIn(
        _ h: Harness, uid: String = Fixture.uid, username: String = Fixture.username, omit: Set<String> = []
    ) async throws {
        h.expectStart(challenge: .json(200, Fixture.passwordChallenge))
        var body = Fixture.tokenBody(omit: omit)
        body["client_info"] = Base64URL.encode(Data(#"{"uid":"\#(uid)","utid":"\#(Fixture.utid)"}"#.utf8))
        body["id_token"] = Fixture.idToken(username: username, extra: ["oid": uid])
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(200, body))
        let parameters = MSALNativeAuthSignInParameters(username: username)
        parameters.password = Fixture.password
        _ = try await h.app.signIn(parameters: parameters)
    }

    @Test func currentAccountIsTheOneSignedInAndAmbiguousWithTwo() async throws {
        let h = try Harness { $0.allowsMultipleAccounts = true }
        #expect(try await h.app.getCurrentAccount(with: nil).0 == nil)
        try await signIn(h)
        #expect(try await h.app.getCurrentAccount(with: nil).0?.username == Fixture.username)
        try await signIn(h, uid: "cccccccc-0000-1111-2222-333333333333", username: "grace@contoso.com")
        do {
            _ = try await h.app.getCurrentAccount(with: nil)
            Issue.record("two accounts, yet one current")
        } catch {
            #expect((error as NSError).msalInternalCode == .internalErrorAmbiguousAccount)
        }
        let grace = try h.app.accounts(for: MSALAccountEnumerationParameters(identifier: nil, username: "GRACE@contoso.com"))
        #expect(grace.map(\.username) == ["grace@contoso.com"])
        #expect(try h.app.accounts(for: MSALAccountEnumerationParameters()).count == 2)
        #expect(
            try h.app.accounts(for: MSALAccountEnumerationParameters(tenantProfileIdentifier: Fixture.uid)).map(\.username) == [
                Fixture.username
            ])
    }

    /// `returnOnlySignedInAccounts`, as MSAL reads it: by default only accounts with a refresh token
    /// of this client id; false, every account the cache knows, another app's and this app's
    /// without a refresh token too. The other app shares the cache file under another client id.
    @Test func returnOnlySignedInAccountsMeansAccountsWithThisClientsRefreshToken() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("msal-signed-in-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        let other = try Harness {
            $0.clientId = "99999999-aaaa-2222-bbbb-3333cccc4444"
            $0.tokenCacheLocation = .file(file)
        }
        let h = try Harness {
            $0.allowsMultipleAccounts = true
            $0.tokenCacheLocation = .file(file)
        }
        try await signIn(other, uid: "cccccccc-0000-1111-2222-333333333333", username: "grace@contoso.com")
        try await signIn(h, uid: "dddddddd-0000-1111-2222-333333333333", username: "linus@contoso.com", omit: ["refresh_token"])
        try await signIn(h)
        #expect(h.stubProblems.isEmpty && other.stubProblems.isEmpty)

        let signedIn = MSALAccountEnumerationParameters()
        #expect(signedIn.returnOnlySignedInAccounts)
        #expect(try h.app.accounts(for: signedIn).map(\.username) == [Fixture.username])
        let known = MSALAccountEnumerationParameters()
        known.returnOnlySignedInAccounts = false
        #expect(try Set(h.app.accounts(for: known).map(\.username)) == [Fixture.username, "grace@contoso.com", "linus@contoso.com"])
        // The filters apply to either list.
        let grace = MSALAccountEnumerationParameters(identifier: nil, username: "GRACE@contoso.com")
        #expect(try h.app.accounts(for: grace).isEmpty)
        grace.returnOnlySignedInAccounts = false
        let found = try #require(try h.app.accounts(for: grace).first)
        #expect(found.identifier == "cccccccc-0000-1111-2222-333333333333.\(Fixture.utid)")
        #expect(try other.app.accounts(for: MSALAccountEnumerationParameters()).map(\.username) == ["grace@contoso.com"])

        // Removed from this app: no longer signed in, and no longer known once no app holds its tokens.
        try h.app.remove(try #require(try h.app.accounts(for: signedIn).first))
        #expect(try h.app.accounts(for: signedIn).isEmpty)
        #expect(try Set(h.app.accounts(for: known).map(\.username)) == ["grace@contoso.com", "linus@contoso.com"])
    }

    @Test func signoutRemovesTheAccountAndCanOpenTheLogoutPage() async throws {
        let h = try Harness { $0.allowsMultipleAccounts = true }
        try await signIn(h)
        let account = try #require(try h.app.allAccounts().first)
        let launcher = RecordingLauncher()
        let webview = MSALWebviewParameters()
        webview.browserLauncher = launcher
        let parameters = MSALSignoutParameters(webviewParameters: webview)
        parameters.signoutFromBrowser = true
        let reached = try await h.app.signout(with: account, signoutParameters: parameters)
        #expect(try reached && h.app.allAccounts().isEmpty)
        let opened = try #require(launcher.urls.first)
        #expect(opened.path == "/contoso.onmicrosoft.com/oauth2/v2.0/logout")

        let missing = MSALSignoutParameters()
        missing.signoutFromBrowser = true
        do {
            try await h.app.signout(with: account, signoutParameters: missing)
            Issue.record("browser sign-out without webview parameters")
        } catch {
            #expect((error as NSError).msalInternalCode == .internalErrorInvalidParameter)
        }
    }

    @Test func aClaimsChallengeBecomesAClaimsRequest() throws {
        let json = #"{"access_token":{"acrs":{"essential":true,"value":"c1"}}}"#
        let header =
            #"Bearer realm="", authorization_uri="https://login.example/authorize", error="insufficient_claims", claims="\#(Data(json.utf8).base64EncodedString())""#
        let request = try #require(MSALClaimsRequest.fromClaimsChallenge(header))
        let acrs = try #require(request.claimsRequests(for: .accessToken).first)
        #expect(acrs.name == "acrs" && acrs.additionalInfo?.value as? String == "c1")
        // base64url without padding, and the JSON itself, as some services send it.
        let url = Base64URL.encode(Data(json.utf8))
        #expect(MSALClaimsRequest.fromClaimsChallenge(#"Bearer error="insufficient_claims", claims="\#(url)""#) != nil)
        #expect(MSALClaimsRequest.fromClaimsChallenge(#"Bearer error="invalid_token""#) == nil)
        #expect(MSALClaimsRequest.fromClaimsChallenge(#"Bearer claims="bm90IGpzb24=""#) == nil)
    }
}

/// A launcher that records the URLs it was asked to open.
final class RecordingLauncher: MSALBrowserLauncher, @unchecked Sendable {
    private let lock = NSLock()
    private var opened: [URL] = []
    var urls: [URL] { lock.withLock { opened } }
    func open(_ url: URL) async throws { lock.withLock { opened.append(url) } }
}
