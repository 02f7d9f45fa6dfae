import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The loopback HTTP listener that receives the browser's redirect (RFC 8252 §7.3, docs/error-mapping.md#loopback-redirect).
///
/// Foundation on Linux has no server API, so this file speaks just enough HTTP/1.1 over Glibc
/// sockets: it binds `127.0.0.1` and, on the same port, `::1` when the machine has it; accepts
/// connections until one valid redirect arrives; answers each with `Connection: close`. All socket
/// work runs on one dedicated thread around `poll(2)`, with a pipe to wake it for `cancel()`, so
/// no Swift concurrency thread ever blocks. Every descriptor is `O_CLOEXEC` (a browser started
/// meanwhile must not inherit the port) and all are closed before `waitForResponse` returns.
///
/// Requests: only `GET` on the redirect path (`/` when the redirect URI has none) and on `/`;
/// anything else is a 404 and the listener keeps going (browsers ask for `/favicon.ico`). A query
/// with `code` or `error` on the redirect path is a response. With the expected `state` it gets the
/// result page and ends the wait; with a missing or different `state` it gets 400 "State mismatch"
/// and the listener keeps listening (a forged request must not abort the real sign-in),
/// remembering it so that a timeout is then reported as `.stateMismatch`. `GET /` with none of
/// `code`, `error` and `state` in its query is the short address: a 302 to the authorize URL once
/// offered, while the wait lasts, when `Host` names this machine (docs/usage.md#signing-in-over-ssh).
///
/// ```swift
/// // given: secrets: AuthorizationSecrets
/// let listener = try LoopbackRedirectListener(redirectURI: nil, expectedState: secrets.state)
/// let redirectURI = try listener.start()          // http://localhost:43123
/// // … open the authorize URL with redirect_uri = redirectURI …
/// let response = try await listener.waitForResponse(timeout: 300)
/// ```
package final class LoopbackRedirectListener: Sendable {
    /// Text of the page shown after a successful redirect.
    package static let successText = "Authentication completed. You can close this window now."

    /// What the redirect URI asks for, once validated.
    package struct Endpoint: Sendable, Equatable {
        /// `localhost`, `127.0.0.1` or `[::1]`, as written (the token request must repeat it).
        package var host: String
        /// 0 for "any free port".
        package var port: UInt16
        /// The path as written, possibly empty.
        package var path: String

        /// The path requests must use: `/` when the URI has none (Entra appends it).
        package var requestPath: String { path.isEmpty ? "/" : path }
    }

    private let endpoint: Endpoint
    private let expectedState: String
    private let pages: ResultPages
    /// The short address's path: `/` and eight random characters, so that only who is shown the
    /// address (not another user of the machine, who can see the port) can read the authorize URL
    /// through it (docs/decisions.md, "Short sign-in address").
    package let shortAddressPath: String
    private let readTimeout: Double
    private let headerLimit: Int
    private let descriptorOpened: DescriptorObserver?
    private let core = Core()

    /// Told of each descriptor the listener opens, on the thread that opens it and before anything
    /// can close it: the listening sockets (a failed bind's too), the wake pair, every accepted
    /// connection. A new kind of descriptor must be reported here as well: the descriptor test
    /// (Tests/MSALTests/Interactive/LoopbackListenerDescriptorTests.swift) keeps their inodes to
    /// check that all of them are closed, which it can do while other tests open descriptors.
    package typealias DescriptorObserver = @Sendable (Int32) -> Void

    /// A listener for `redirectURI` (nil means `http://localhost` on a free port), not yet bound.
    ///
    /// - Parameters:
    ///   - expectedState: the `state` of the authorize request; only a redirect carrying it ends the wait.
    ///   - pages: the app's pages for the redirect that ends the wait; the SDK's plain ones by default.
    ///   - readTimeout: how long one connection may take to send its request head (10 s).
    ///   - headerLimit: the largest request head accepted, in bytes (8 KiB).
    ///   - descriptorOpened: told of each descriptor the listener opens (for tests; nil by default).
    /// - Throws: `.invalidRedirectURI` unless the URI is `http://localhost[:port][/path]`,
    ///   `http://127.0.0.1…` or `http://[::1]…` without query, fragment or user.
    package init(
        redirectURI: URL?, expectedState: String, pages: ResultPages = ResultPages(), readTimeout: Double = 10,
        headerLimit: Int = 8 * 1024, random: RandomBytes = .system, descriptorOpened: DescriptorObserver? = nil
    ) throws(InteractiveAuthorizationError) {
        self.endpoint = try Self.endpoint(for: redirectURI)
        self.expectedState = expectedState
        self.pages = pages
        shortAddressPath = "/" + Base64URL.encode(Data(random.bytes(6)))
        self.readTimeout = readTimeout
        self.headerLimit = headerLimit
        self.descriptorOpened = descriptorOpened
    }

    deinit {
        core.stop(.cancelCalled)
    }

    /// Binds and starts accepting; returns the redirect URI in use, with the port actually bound
    /// (e.g. `http://localhost:43123`). Call once.
    ///
    /// - Throws: `.portUnavailable` when a fixed port is taken, `.listenerFailed` for other socket
    ///   errors, `.invalidParameter` when already started.
    package func start() throws(InteractiveAuthorizationError) -> URL {
        // Checked before binding too, so that a fixed port held by the first start is not
        // reported as busy.
        guard !core.withState({ $0.started }) else { throw .invalidParameter("the loopback listener was already started") }
        let sockets = try Self.bind(endpoint, opened: descriptorOpened)
        // A socket pair rather than pipe2(2), which Swift's Glibc module does not export; the
        // flags are set atomically either way.
        var wake: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0, &wake) == 0
        else {
            let code = errno
            for socket in sockets.descriptors { close(socket) }
            throw .listenerFailed(operation: "socketpair", errno: code)
        }
        let pipe = (read: wake[0], write: wake[1])
        descriptorOpened?(pipe.read)
        descriptorOpened?(pipe.write)
        guard core.begin(wakeWrite: pipe.write) else {
            for descriptor in sockets.descriptors + [pipe.read, pipe.write] { close(descriptor) }
            throw .invalidParameter("the loopback listener was already started")
        }
        let loop = Loop(
            core: core, listeners: sockets.descriptors, wakeRead: pipe.read, requestPath: endpoint.requestPath,
            shortAddressPath: shortAddressPath,
            expectedState: expectedState, pages: pages, readTimeout: readTimeout, headerLimit: headerLimit,
            descriptorOpened: descriptorOpened)
        let addresses = sockets.descriptors.map(Self.localAddress(of:))
        core.withState {
            $0.boundAddresses = addresses
            $0.port = sockets.port
        }
        let thread = Thread { loop.run() }
        thread.name = "MSAL loopback listener"
        thread.start()
        return URL(string: "http://\(endpoint.host):\(sockets.port)\(endpoint.path)")!
    }

    /// The short address, `http://localhost:PORT/` and eight random characters (the redirect URI's
    /// host, the bound port, `shortAddressPath`), once started: while the sign-in waits, `GET` on it without an authorization response
    /// is redirected to the URL given to `offerShortAddress(redirectingTo:)`
    /// (docs/usage.md#signing-in-over-ssh).
    package var shortAddress: URL? {
        let port = core.withState { $0.port }
        guard port != 0 else { return nil }
        return URL(string: "http://\(endpoint.host):\(port)\(shortAddressPath)")
    }

    /// Makes the short address redirect to `authorizeURL` until the wait ends. Nothing (false)
    /// before `start()` or once the wait is over or cancelled.
    @discardableResult
    package func offerShortAddress(redirectingTo authorizeURL: URL) -> Bool {
        core.offerShortAddress(authorizeURL)
    }

    /// Where the short address sends the browser now: nil before it is offered and once the wait is
    /// over (a response accepted, a timeout, a cancel).
    package var shortAddressTarget: URL? { core.withState { $0.shortAddressTarget } }

    /// The addresses bound after `start()`, as the sockets themselves report them
    /// (`getsockname(2)`): `127.0.0.1`, and `::1` when the machine has it.
    package var boundAddresses: [String] { core.withState { $0.boundAddresses } }

    /// Waits for the redirect. Call once, after `start()`.
    ///
    /// - Returns: the redirect's query (a code, or the service's error).
    /// - Throws: `.cancelled(.timedOut)` after `timeout` seconds (`.stateMismatch` instead when a
    ///   redirect with a wrong `state` came meanwhile), `.cancelled(.taskCancelled)` or
    ///   `.cancelled(.cancelCalled)`. The sockets are closed when this returns, whichever way.
    package func waitForResponse(timeout: Double) async throws(InteractiveAuthorizationError) -> AuthorizationResponse {
        guard core.beginWait(timeout: timeout) else {
            throw .invalidParameter("waitForResponse needs start() first and may be called once")
        }
        let core = core
        let result = await withTaskCancellationHandler {
            await core.outcome.value()
        } onCancel: {
            core.stop(.taskCancelled)
        }
        return try result.get()
    }

    /// Ends the wait with `.cancelled(.cancelCalled)` and closes the sockets; nothing if already over.
    /// The sockets close a moment later on the listener's thread; `cancelAndWait()` waits for that.
    package func cancel() {
        core.stop(.cancelCalled)
    }

    /// Cancels and, unless someone is already in `waitForResponse` (which then returns), waits
    /// until every socket is closed. For error paths that end a sign-in before its wait.
    package func cancelAndWait() async {
        cancel()
        guard core.beginWait(timeout: 0) else { return }
        _ = await core.outcome.value()
    }
}
