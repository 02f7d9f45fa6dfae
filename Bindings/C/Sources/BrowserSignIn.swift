import Dispatch
import Foundation
import MSAL

/// `msal_na_sign_in_url_callback`: the sign-in address (a `msal_na_sign_in_url`, valid during the
/// call) and the caller's user data.
public typealias SignInURLCallback = @convention(c) (UnsafeRawPointer?, UnsafeMutableRawPointer?) -> Void

/// `msal_na_app_acquire_token`: MSAL's `acquireToken(with:)` (the system browser, a loopback
/// redirect, PKCE) for C, with the app's URL callback and process-wide cancellation.
enum BrowserSignIn {
    typealias Work = Dispatcher.Work

    /// The fields of the options object (Bindings/C/include/msal_native_auth.h, msal_na_app_acquire_token).
    static let fields: Set<String> = [
        "scopes", "login_hint", "claims", "correlation_id", "prompt", "domain_hint", "extra_scopes_to_consent",
        "extra_query_parameters", "timeout_seconds", "system_browser",
    ]

    static let prompts: [String: MSALPromptType] = [
        "select_account": .selectAccount, "login": .login, "consent": .consent, "create": .create, "if_necessary": .promptIfNecessary,
    ]

    static func acquireToken(
        _ app: OpaquePointer?, _ optionsJSON: UnsafePointer<CChar>?, _ urlCallback: SignInURLCallback?,
        _ urlUserData: UnsafeMutableRawPointer?
    ) throws(InterfaceError) -> Work {
        let application = try Operations.app(app).application
        let options = try RequestOptions(optionsJSON, allowed: fields)
        let webview = MSALWebviewParameters()
        webview.timeout = try options.seconds("timeout_seconds", limit: 86_400)
        let bridge = urlCallback.map { SignInURLBridge(callback: $0, userData: urlUserData) }
        switch (try options.bool("system_browser") ?? (bridge == nil), bridge) {
        case (true, nil): break // the system browser, or MSAL_NA_ERR_NO_BROWSER
        case (false, let bridge?): webview.browserLauncher = AppShownLauncher(bridge: bridge)
        case (true, let bridge?): webview.signInAddressHandler = { address in bridge.show(SignInURLBridge.Address(address)) }
        case (false, nil):
            throw InterfaceError(.invalidArgument, "'options_json': \"system_browser\": false needs a URL callback to show the address")
        }
        let parameters = MSALInteractiveTokenParameters(scopes: try options.strings("scopes") ?? [], webviewParameters: webview)
        parameters.loginHint = try options.string("login_hint")
        parameters.domainHint = try options.string("domain_hint")
        parameters.claimsRequest = try options.claims()
        parameters.correlationId = try options.correlationId()
        parameters.extraScopesToConsent = try options.strings("extra_scopes_to_consent")
        parameters.extraQueryParameters = try options.stringMap("extra_query_parameters")
        if let prompt = try options.string("prompt") {
            guard let type = prompts[prompt] else {
                throw InterfaceError(
                    .invalidArgument, "'options_json': field 'prompt' must be one of \(prompts.keys.sorted().joined(separator: ", "))")
            }
            parameters.promptType = type
        }
        // Registered last, once nothing can fail: a cancel from now on reaches this sign-in.
        let cancellation = BrowserCancellation.register()
        let request = Operations.UncheckedParameters(value: parameters)
        return {
            let task = Task { () -> Result<MSALResult, NSError> in
                do { return .success(try await application.acquireToken(with: request.value)) } catch { return .failure(error as NSError) }
            }
            cancellation.attach(task)
            let answer = await task.value
            BrowserCancellation.unregister(cancellation)
            // The result is delivered only once the URL callback has returned.
            await bridge?.drain()
            switch answer {
            case .success(let result): return Outcome(browser: result, application: application)
            case .failure(let error): return Outcome(standard: error)
            }
        }
    }
}

/// The app's URL callback, called on a queue of its own: never the result callbacks' (a result
/// callback may start a browser sign-in with a `_wait` call) and never the Swift pool.
final class SignInURLBridge: Sendable {
    private struct Target: @unchecked Sendable {
        let callback: SignInURLCallback
        let userData: UnsafeMutableRawPointer?
    }

    static let queue = DispatchQueue(label: "msal-native-auth.browser")

    private let target: Target
    private let shown = Guarded(false)

    init(callback: @escaping SignInURLCallback, userData: UnsafeMutableRawPointer?) {
        target = Target(callback: callback, userData: userData)
    }

    /// The fields of a `msal_na_sign_in_url` after `size`, in its order.
    struct Address: Sendable {
        var url: String
        /// The SDK listener's short address and the `ssh -L` line: known when the SDK hands over
        /// an `MSALSignInAddress` (no browser started), not when the app's launcher shows the URL.
        var shortURL: String?
        var sshCommand: String?

        init(url: URL) {
            self.url = url.absoluteString
        }

        init(_ address: MSALSignInAddress) {
            url = address.authorizationURL.absoluteString
            shortURL = address.shortURL.absoluteString
            sshCommand = address.sshCommand
        }
    }

    /// Hands the address to the callback in a `msal_na_sign_in_url` (`size`, then one `const char *`
    /// per field, NULL for one not known) and returns without waiting for it: the sign-in goes on
    /// to wait for the redirect.
    func show(_ address: Address) {
        shown.withLock { $0 = true }
        let target = target
        Self.queue.async {
            let fields = [address.url, address.shortURL, address.sshCommand].map { $0.flatMap { strdup($0) } }
            defer {
                for field in fields { free(field) }
            }
            let word = MemoryLayout<Int>.size
            let size = (1 + fields.count) * word
            let info = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: MemoryLayout<Int>.alignment)
            defer { info.deallocate() }
            info.storeBytes(of: size, as: Int.self)
            for (index, field) in fields.enumerated() {
                info.storeBytes(of: field.map(UnsafeRawPointer.init), toByteOffset: (1 + index) * word, as: UnsafeRawPointer?.self)
            }
            HostCallbacks.shared.call { target.callback(UnsafeRawPointer(info), target.userData) }
        }
    }

    /// Returns once a callback started by `show` has returned.
    func drain() async {
        guard shown.withLock({ $0 }) else { return }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in Self.queue.async { done.resume() } }
    }
}

/// "The app shows the address": MSAL's `browserLauncher`, which shows it through the URL callback.
struct AppShownLauncher: MSALBrowserLauncher {
    let bridge: SignInURLBridge

    func open(_ url: URL) async throws {
        bridge.show(SignInURLBridge.Address(url: url))
    }
}

/// The browser sign-ins started through the C interface and not yet finished, for
/// `msal_na_cancel_browser`. A cancel that comes before the sign-in's task exists is kept and
/// applied when it does, so no cancel is lost to timing.
final class BrowserCancellation: Sendable {
    private struct State {
        var cancelled = false
        var task: Task<Result<MSALResult, NSError>, Never>?
    }

    private static let running = Guarded([ObjectIdentifier: BrowserCancellation]())
    private let state = Guarded(State())

    static func register() -> BrowserCancellation {
        let cancellation = BrowserCancellation()
        running.withLock { $0[ObjectIdentifier(cancellation)] = cancellation }
        return cancellation
    }

    static func unregister(_ cancellation: BrowserCancellation) {
        _ = running.withLock { $0.removeValue(forKey: ObjectIdentifier(cancellation)) }
    }

    /// Cancels every running sign-in started through the C interface (one at most gets past the
    /// SDK's one-session gate); returns how many there were. Task cancellation ends the SDK's wait
    /// as `cancelCurrentWebAuthSession()` does, and also before the wait has begun.
    static func cancelAll() -> Int {
        let all = running.withLock { Array($0.values) }
        for cancellation in all { cancellation.cancel() }
        return all.count
    }

    func attach(_ task: Task<Result<MSALResult, NSError>, Never>) {
        let cancelled = state.withLock { state in
            state.task = task
            return state.cancelled
        }
        if cancelled { task.cancel() }
    }

    private func cancel() {
        let task = state.withLock { state in
            state.cancelled = true
            return state.task
        }
        task?.cancel()
    }
}
