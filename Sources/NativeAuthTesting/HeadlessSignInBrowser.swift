import Foundation
import MSAL

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A browser without a screen for the emulator's sign-in pages, to test `acquireToken` end to end:
/// as `MSALWebviewParameters.browserLauncher` it loads the authorize URL (or the SDK listener's
/// short address, which redirects to it), fills the page's form as a person would (a password, or
/// an email code it fetches, or Cancel), answers a consent page, and follows the final redirect to
/// the SDK's loopback listener, which then finishes the sign-in.
///
/// ```swift
/// // given: app: MSALPublicClientApplication, scopes: [String]
/// let webview = MSALWebviewParameters()
/// webview.browserLauncher = HeadlessSignInBrowser(.password(username: "ada@example.com", password: "…"))
/// let result = try await app.acquireToken(with: MSALInteractiveTokenParameters(scopes: scopes, webviewParameters: webview))
/// ```
///
/// It keeps the session cookie between sign-ins, as a browser does. Pages it cannot fill end the
/// run; `outcome()` then says why (the SDK itself waits for the redirect until its timeout).
public final class HeadlessSignInBrowser: MSALBrowserLauncher, @unchecked Sendable {
    // `@unchecked`: the mutable parts (cookies, the outcome) are behind `state`'s lock.

    /// What the person does on the sign-in page.
    public enum Action: Sendable {
        case password(username: String, password: String)
        /// Asks for an email code, gets it from `code` (for example the emulator's mailbox), types it.
        case emailCode(username: String, code: @Sendable (String) async throws -> String)
        /// Presses Cancel.
        case cancel
    }

    /// How the person answers a consent page.
    public enum Consent: Sendable {
        /// Accepts every scope shown.
        case acceptAll
        /// Unchecks these scopes and accepts the rest.
        case decline([String])
        /// Presses Decline.
        case declineAll
    }

    /// How the person signs in on the page.
    public let action: Action
    /// How the person answers a consent page.
    public let consent: Consent
    private let owned: OwnedURLSession
    private var session: URLSession { owned.session }
    private let state = NSLock()
    private var cookies: [String: String] = [:]
    private var result: Result<URL, any Error>?
    private var waiters: [CheckedContinuation<Result<URL, any Error>, Never>] = []

    /// A browser that signs in with `action` and answers consent with `consent`, keeping its own
    /// cookies (none shared with other instances).
    public init(_ action: Action, consent: Consent = .acceptAll) {
        self.action = action
        self.consent = consent
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        owned = OwnedURLSession(configuration: configuration, delegate: NoRedirects())
    }

    /// Starts the sign-in in the background and returns at once, as a real browser does.
    public func open(_ url: URL) async throws {
        state.withLock { result = nil }
        Task(executorPreference: Self.executor) { [self] in
            do {
                finish(.success(try await run(url)))
            } catch {
                finish(.failure(error))
            }
        }
    }

    /// Where every run's work happens: a queue of the browser's own, never the cooperative pool, as
    /// a browser in another process would. With a whole test suite's tasks queued on the pool's two
    /// threads, a run that went back to the pool after each page was seen to miss the app's 120 s.
    private static let executor = OwnQueueExecutor()

    /// Whether the caller runs on the browser's own queue (BrowserSignInEndToEndTests asks from an
    /// `emailCode` callback).
    package static var isOnItsOwnQueue: Bool { DispatchQueue.getSpecific(key: OwnQueueExecutor.key) == true }

    private final class OwnQueueExecutor: TaskExecutor, Sendable {
        static let key = DispatchSpecificKey<Bool>()
        private let queue = DispatchQueue(label: "HeadlessSignInBrowser")

        init() { queue.setSpecific(key: Self.key, value: true) }

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            let executor = asUnownedTaskExecutor()
            queue.async { job.runSynchronously(on: executor) }
        }
    }

    /// How the last run ended: the redirect URL it delivered to the app, or why it stopped.
    public func outcome() async -> Result<URL, any Error> {
        await withCheckedContinuation { continuation in
            let ready: Result<URL, any Error>? = state.withLock {
                if let result { return result }
                waiters.append(continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Why a run stopped before delivering the redirect.
    public struct Failure: Error, CustomStringConvertible {
        /// Why, in a sentence.
        public let description: String
    }

    private func finish(_ outcome: Result<URL, any Error>) {
        let waiting = state.withLock {
            result = outcome
            defer { waiters = [] }
            return waiters
        }
        for waiter in waiting { waiter.resume(returning: outcome) }
    }

    private func run(_ start: URL) async throws -> URL {
        // The page shown: the authorize page, or the SDK listener's short address that redirects to it.
        var page = start
        var (status, headers, html) = try await load(start, method: "GET", form: nil)
        var answered: String?
        for _ in 0..<8 {
            if (300...399).contains(status), let location = headers["Location"],
                let next = URL(string: location, relativeTo: page)?.absoluteURL
            {
                if next.host == page.host && next.port == page.port || !Self.carriesAuthorizationResponse(next) {
                    page = next
                    (status, headers, html) = try await load(next, method: "GET", form: nil)
                    continue
                }
                // The redirect to the app: a browser loads it, and the app's listener answers.
                _ = try await load(next, method: "GET", form: nil)
                return next
            }
            guard status == 200 else { throw Failure(description: "the sign-in page answered HTTP \(status)") }
            let form = HTMLForm(html: html)
            guard let formAction = form.action, let target = URL(string: formAction, relativeTo: page)?.absoluteURL else {
                throw Failure(description: "the page has no form: \(form.errorCode ?? "") \(form.message ?? "")")
            }
            if let answered, answered == form.step, form.step != "otp" {
                // The same page again: what was typed was refused.
                throw Failure(description: "the '\(answered)' page refused the answer: \(form.message ?? "no message")")
            }
            answered = form.step
            var fields = form.hidden.map { ($0.key, $0.value) }
            switch (form.step, action) {
            case (_, .cancel):
                fields.append(("action", "cancel"))
            case ("sign_in", .password(let username, let password)):
                fields += [("username", username), ("password", password), ("action", "password")]
            case ("sign_in", .emailCode(let username, _)):
                fields += [("username", username), ("action", "send_code")]
            case ("otp", .emailCode(let username, let code)):
                fields += [("otp", try await code(username)), ("action", "verify_code")]
            case ("consent", _):
                switch consent {
                case .acceptAll: fields += form.checkboxes.map { ("scope", $0) } + [("action", "accept")]
                case .decline(let scopes):
                    fields += form.checkboxes.filter { !scopes.contains($0) }.map { ("scope", $0) } + [("action", "accept")]
                case .declineAll: fields.append(("action", "decline"))
                }
            default:
                throw Failure(description: "cannot fill the '\(form.step ?? "?")' page: \(form.message ?? "no message")")
            }
            if let message = form.message, !message.isEmpty, form.step == "sign_in", case .password = action,
                html.contains("id=\"message\"")
            {
                throw Failure(description: "the sign-in page refused the credentials: \(message)")
            }
            (status, headers, html) = try await load(target, method: "POST", form: fields)
        }
        throw Failure(description: "too many pages")
    }

    private func load(_ url: URL, method: String, form: [(String, String)]?) async throws -> (Int, [String: String], String) {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: 30)
        request.httpMethod = method
        let cookieHeader = state.withLock { cookies.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: "; ") }
        if !cookieHeader.isEmpty { request.setValue(cookieHeader, forHTTPHeaderField: "Cookie") }
        if let form {
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(form.map { "\(Self.escape($0.0))=\(Self.escape($0.1))" }.joined(separator: "&").utf8)
        }
        let (data, response) = try await withCheckedThrowingContinuation {
            (continuation: CheckedContinuation<(Data, URLResponse), any Error>) in
            session.dataTask(with: request) { data, response, error in
                if let error { return continuation.resume(throwing: error) }
                guard let response else { return continuation.resume(throwing: Failure(description: "no response from \(url)")) }
                continuation.resume(returning: (data ?? Data(), response))
            }.resume()
        }
        let http = response as? HTTPURLResponse
        var headers: [String: String] = [:]
        if let location = http?.value(forHTTPHeaderField: "Location") { headers["Location"] = location }
        if let setCookie = http?.value(forHTTPHeaderField: "Set-Cookie"), let pair = setCookie.split(separator: ";").first {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]).trimmingCharacters(in: .whitespaces)
            let value = parts.count > 1 ? String(parts[1]) : ""
            state.withLock { cookies[name] = value.isEmpty || setCookie.contains("Max-Age=0") ? nil : value }
        }
        return (http?.statusCode ?? 0, headers, String(decoding: data, as: UTF8.self))
    }

    /// Whether `url`'s query has `code` or `error`: the redirect that ends the sign-in at the app.
    private static func carriesAuthorizationResponse(_ url: URL) -> Bool {
        let names = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.map(\.name) ?? []
        return names.contains("code") || names.contains("error")
    }

    private static func escape(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    /// Hands redirects back instead of following them, so cookies and the final hop are the
    /// browser's own decisions.
    private final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest,
            completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            completionHandler(nil)
        }
    }
}
