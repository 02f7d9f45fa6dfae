import Foundation
import MSAL
import NativeAuthTesting
import Testing

@testable import MSAL

/// The standard surface's accounts, sign-out and claims-challenge helper on the native application.
@Suite struct StandardSurfaceTests {
    /// A native sign-in of `username` with its own home account id.
    private func signIn(_ h: Harness, uid: String = Fixture.uid, username: String = Fixture.username) async throws {
        h.expectStart(challenge: .json(200, Fixture.passwordChallenge))
        var body = Fixture.tokenBody()
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
