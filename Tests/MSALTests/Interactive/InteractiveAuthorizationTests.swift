import Foundation
import TestSupport
import Testing

@testable import MSAL

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The whole browser sign-in up to the code, with a "browser" that follows the redirect itself
/// over URLSession to the loopback listener. Nothing leaves 127.0.0.1 / ::1: the authority is
/// never contacted.
@Suite(.tags(.concurrency)) struct InteractiveAuthorizationTests {
    private static let authority = URL(string: "https://login.example/contoso.onmicrosoft.com")!

    /// The query of `url` as a dictionary (first value wins).
    private static func query(_ url: URL) -> [String: String] {
        let text = url.absoluteString.split(separator: "?", maxSplits: 1).last.map(String.init) ?? ""
        var out: [String: String] = [:]
        for (name, value) in FormEncoding.decode(Data(text.utf8)) ?? [] where out[name] == nil { out[name] = value }
        return out
    }

    /// What a browser does after sign-in: GET redirect_uri?{answer}&state=… over URLSession.
    private static func redirect(_ authorizeURL: URL, answer: String, state: String? = nil) async -> (Int, String)? {
        let query = query(authorizeURL)
        guard let redirect = query["redirect_uri"], let echoed = state ?? query["state"] else { return nil }
        let base = redirect.hasSuffix("/") ? redirect : redirect + "/"
        guard let url = URL(string: "\(base)?\(answer)&state=\(FormEncoding.escape(echoed))") else { return nil }
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        guard let (data, response) = try? await session.data(from: url) else { return nil }
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    /// A browser that follows the redirect with `answer` in the background and reports the page.
    private static func browser(answer: String, page: OneShot<(Int, String)?>? = nil) -> BrowserLauncher {
        BrowserLauncher(
            launch: { url in
                Task {
                    let shown = await redirect(url, answer: answer)
                    page?.resume(shown)
                }
                return true
            }, environment: ["PATH": "/nonexistent"], isWSL: false)
    }

    private static let noBrowser = BrowserLauncher(environment: ["PATH": "/nonexistent"], isWSL: false)

    /// The error `body` throws; records an issue when it returns or throws something else.
    private func thrownError(
        sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> some Any
    ) async -> InteractiveAuthorizationError? {
        do {
            _ = try await body()
            Issue.record("expected an error, got a result", sourceLocation: sourceLocation)
        } catch let error as InteractiveAuthorizationError {
            return error
        } catch {
            Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
        }
        return nil
    }

    @Test func signInReturnsTheCodeVerifierAndRedirectURI() async throws {
        let seenURL = Locked<URL?>(nil)
        let shownPage = OneShot<(Int, String)?>()
        var authorization = InteractiveAuthorization(
            launcher: Self.browser(answer: "code=0.AUTH-CODE&client_info=eyJ1aWQiOiJ1In0", page: shownPage), gate: InteractiveSessionGate())
        authorization.onURL = { url in seenURL.withLock { $0 = url } }
        var request = InteractiveAuthorization.Request(clientId: "client-1", authority: Self.authority, scopes: ["User.Read"])
        request.loginHint = "ada@contoso.com"
        let grant = try await authorization.run(request)

        let url = try #require(seenURL.withLock { $0 })
        let query = Self.query(url)
        #expect(url.absoluteString.hasPrefix("https://login.example/contoso.onmicrosoft.com/oauth2/v2.0/authorize?client_id=client-1&"))
        #expect(grant.code == "0.AUTH-CODE")
        #expect(grant.clientInfo == "eyJ1aWQiOiJ1In0")
        #expect(grant.redirectURI == query["redirect_uri"])
        #expect(grant.redirectURI.hasPrefix("http://localhost:"))
        #expect(query["code_challenge"] == PKCE.challenge(for: grant.codeVerifier))
        #expect(query["nonce"] == grant.nonce)
        #expect(query["client-request-id"] == request.correlationId.uuidString)
        #expect(query["login_hint"] == "ada@contoso.com")
        #expect(grant.codeVerifier.count == 43)
        // The browser saw the success page, without the code.
        let page = try #require(await shownPage.value())
        #expect(page.0 == 200)
        #expect(page.1.contains("Authentication completed. You can close this window now."))
        #expect(!page.1.contains("AUTH-CODE"))
    }

    @Test func aSecondConcurrentSessionIsRefusedAndTheFirstCanBeCancelled() async throws {
        let gate = InteractiveSessionGate()
        let opened = OneShot<Void>()
        let first = InteractiveAuthorization(
            launcher: BrowserLauncher(
                launch: { _ in
                    opened.resume(())
                    return true
                }, environment: [:], isWSL: false), gate: gate)
        let request = InteractiveAuthorization.Request(clientId: "c", authority: Self.authority, scopes: [])
        let running = Task { try await first.run(request) }
        await opened.value()

        let second = InteractiveAuthorization(launcher: Self.browser(answer: "code=X"), gate: gate)
        let refused = await thrownError { try await second.run(request) }
        #expect(refused == .sessionAlreadyRunning)
        #expect(refused?.internalErrorCode == -42_402)

        #expect(gate.cancelCurrent())
        let cancelled = await thrownError { try await running.value }
        #expect(cancelled == .cancelled(.cancelCalled))
        #expect(cancelled?.isUserCanceled == true)
        #expect(!gate.isRunning)
        #expect(!gate.cancelCurrent())
    }

    /// "At once": the wait is 600 s, so reaching the error at all (within the time limit) shows
    /// that nothing waited for it.
    @Test(.timeLimit(.minutes(1))) func withoutABrowserOrAHandlerItFailsAtOnceNamingTheHandler() async throws {
        let gate = InteractiveSessionGate()
        let seenURL = Locked<URL?>(nil)
        // The listener's sockets while it listens, by inode (see OwnSockets.stillOpen).
        let listening = Locked<[OwnSockets.Socket]>([])
        var authorization = InteractiveAuthorization(launcher: Self.noBrowser, timeout: 600, gate: gate)
        authorization.onURL = { url in
            seenURL.withLock { $0 = url }
            let port = Self.query(url)["redirect_uri"].flatMap(URL.init(string:))?.port.flatMap(UInt16.init(exactly:))
            let sockets = port.map { OwnSockets.tcp(localPorts: [$0]).filter(\.isListening) } ?? []
            listening.withLock { $0 = sockets }
        }
        let request = InteractiveAuthorization.Request(clientId: "c", authority: Self.authority, scopes: [])
        let error = await thrownError { try await authorization.run(request) }
        guard case .noBrowser(let message) = error else {
            Issue.record("expected noBrowser, got \(String(describing: error))")
            return
        }
        #expect(message.contains("authorizationURLHandler"))
        #expect(error?.internalErrorCode == -42_403)
        // The listener is already closed when the error arrives.
        #expect(seenURL.withLock { $0 } != nil)
        let sockets = listening.withLock { $0 }
        #expect(!sockets.isEmpty)
        #expect(OwnSockets.stillOpen(sockets) == [])
        #expect(!gate.isRunning)
    }

    @Test func withoutABrowserTheHandlerGetsTheURLAndTheWaitGoesOn() async throws {
        let handled = Locked<[MSALSignInAddress]>([])
        let authorization = InteractiveAuthorization(
            launcher: Self.noBrowser,
            addressHandler: { address in
                handled.withLock { $0.append(address) }
                Task { _ = await Self.redirect(address.authorizationURL, answer: "code=FROM-HANDLER") }
            }, gate: InteractiveSessionGate())
        let grant = try await authorization.run(.init(clientId: "c", authority: Self.authority, scopes: ["Mail.Read"]))
        #expect(grant.code == "FROM-HANDLER")
        #expect(handled.withLock { $0.count } == 1)
    }

    /// Over SSH: the handler's short address leads to the authorize URL through the listener, its
    /// ssh line forwards the listener's port to the server `$SSH_CONNECTION` names (the launcher's
    /// environment), and the redirect then ends the sign-in.
    @Test func theHandlersShortAddressLeadsToTheAuthorizeURL() async throws {
        let followed = OneShot<String>()
        let launcher = BrowserLauncher(
            environment: ["PATH": "/nonexistent", "SSH_CONNECTION": "198.51.100.7 50122 203.0.113.5 22", "USER": "ada"], isWSL: false)
        let seen = Locked<MSALSignInAddress?>(nil)
        let authorization = InteractiveAuthorization(
            launcher: launcher,
            addressHandler: { address in
                seen.withLock { $0 = address }
                Task {
                    // A person's browser: the short address first, then the page, then the redirect.
                    let port = UInt16(address.port)
                    let answer = (try? await LoopbackTestClient.get(address.shortURL.path, port: port)) ?? ""
                    followed.resume(answer)
                    _ = await Self.redirect(address.authorizationURL, answer: "code=VIA-SHORT-ADDRESS")
                }
            }, gate: InteractiveSessionGate())
        let grant = try await authorization.run(.init(clientId: "c", authority: Self.authority, scopes: ["Mail.Read"]))
        #expect(grant.code == "VIA-SHORT-ADDRESS")

        let address = try #require(seen.withLock { $0 })
        let port = try #require(URL(string: grant.redirectURI)?.port)
        #expect(
            address.port == port && address.shortURL.absoluteString.hasPrefix("http://localhost:\(port)/")
                && address.shortURL.path.count == 9)
        #expect(address.authorizationURL.absoluteString.hasPrefix(Self.authority.absoluteString + "/oauth2/v2.0/authorize?"))
        #expect(address.forwardedPorts == [port], "the authority is not on this machine")
        #expect(address.sshCommand == "ssh -L \(port):localhost:\(port) ada@203.0.113.5")
        let answer = await followed.value()
        #expect(answer.hasPrefix("HTTP/1.1 302 Found\r\n"))
        #expect(answer.contains("\r\nLocation: \(address.authorizationURL.absoluteString)\r\n"))
    }

    @Test func theServicesErrorIsThrown() async throws {
        let authorization = InteractiveAuthorization(
            launcher: Self.browser(answer: "error=access_denied&error_subcode=cancel&error_description=User+cancelled"),
            gate: InteractiveSessionGate())
        let error = await thrownError { try await authorization.run(.init(clientId: "c", authority: Self.authority, scopes: [])) }
        #expect(error == .authorizationFailed(error: "access_denied", description: "User cancelled", subcode: "cancel"))
        #expect(error?.isUserCanceled == true)
        let other = InteractiveAuthorizationError.authorizationFailed(error: "invalid_request", description: nil, subcode: nil)
        #expect(!other.isUserCanceled)
        #expect(other.internalErrorCode == -42_104)
    }

    @Test func aForgedRedirectDoesNotEndTheSignInAndATimeoutThenReportsIt() async throws {
        let shownPage = OneShot<(Int, String)?>()
        let authorization = InteractiveAuthorization(
            launcher: BrowserLauncher(
                launch: { url in
                    // The forged redirect completes before the wait starts, so the short timeout
                    // cannot overtake it on a loaded machine.
                    shownPage.resume(await Self.redirect(url, answer: "code=FORGED", state: "attacker"))
                    return true
                }, environment: [:], isWSL: false), timeout: 0.3, gate: InteractiveSessionGate())
        let error = await thrownError { try await authorization.run(.init(clientId: "c", authority: Self.authority, scopes: [])) }
        #expect(error == .stateMismatch)
        #expect(error?.internalErrorCode == -42_501)
        let page = try #require(await shownPage.value())
        #expect(page.0 == 400)
        #expect(page.1.contains("State mismatch"))
    }

    @Test func aTimeoutIsAUserCancel() async throws {
        let authorization = InteractiveAuthorization(
            launcher: BrowserLauncher(launch: { _ in true }, environment: [:], isWSL: false), timeout: 0.2, gate: InteractiveSessionGate())
        let error = await thrownError { try await authorization.run(.init(clientId: "c", authority: Self.authority, scopes: [])) }
        #expect(error == .cancelled(.timedOut(seconds: 0.2)))
        #expect(error?.msalErrorCode == -50_005)
    }

    @Test func taskCancellationEndsTheSignIn() async throws {
        let opened = OneShot<Void>()
        let gate = InteractiveSessionGate()
        let authorization = InteractiveAuthorization(
            launcher: BrowserLauncher(
                launch: { _ in
                    opened.resume(())
                    return true
                }, environment: [:], isWSL: false), gate: gate)
        let running = Task { try await authorization.run(.init(clientId: "c", authority: Self.authority, scopes: [])) }
        await opened.value()
        running.cancel()
        #expect(await thrownError { try await running.value } == .cancelled(.taskCancelled))
        #expect(!gate.isRunning)
    }

    @Test func badInputFailsBeforeAnyBrowserStarts() async throws {
        let launched = Locked(0)
        let launcher = BrowserLauncher(
            launch: { _ in
                launched.withLock { $0 += 1 }
                return true
            }, environment: [:], isWSL: false)
        let authorization = InteractiveAuthorization(launcher: launcher, gate: InteractiveSessionGate())
        var request = InteractiveAuthorization.Request(clientId: "c", authority: Self.authority, scopes: [])
        request.redirectURI = URL(string: "https://app.example/callback")
        #expect(await thrownError { try await authorization.run(request) }?.internalErrorCode == -42_011)
        request.redirectURI = nil
        request.claims = "{}"
        request.extraQueryParameters = ["claims": "{}"]
        #expect(await thrownError { try await authorization.run(request) }?.internalErrorCode == -42_000)
        #expect(launched.withLock { $0 } == 0)
    }

    @Test func aCancelBeforeTheListenerIsAttachedStopsTheSession() throws {
        let gate = InteractiveSessionGate()
        #expect(gate.enter())
        #expect(!gate.enter())
        #expect(gate.cancelCurrent())
        let listener = try LoopbackRedirectListener(redirectURI: nil, expectedState: "s")
        #expect(!gate.attach(listener))
        gate.leave()
        #expect(!gate.isRunning)
        #expect(gate.enter())
        #expect(gate.attach(listener))
        gate.leave()
    }
}
