import Foundation

/// Adds header fields of the app's own to every native-auth request. Mirrors MSAL's
/// `MSALNativeAuthRequestInterceptor`.
///
/// Names must start with `x-` and must not start with the reserved prefixes `x-ms-`, `x-client-`,
/// `x-broker-` or `x-app-`; other names are dropped with a warning in the log. The completion block
/// must be called once (nil for no headers). If it is not called within five seconds the request
/// goes ahead without extra headers, so a forgetful interceptor cannot hang a sign-in.
public protocol MSALNativeAuthRequestInterceptor: AnyObject, Sendable {
    func addAdditionalHeaderFields(_ requestUrl: URL?, completionBlock: @escaping @Sendable ([String: String]?) -> Void)
}

extension MSALNativeAuthRequestInterceptor {
    /// The headers this interceptor adds for `url`, with invalid names removed.
    package func headers(for url: URL, clock: any NativeAuthClock, logger: MSALLoggerConfig) async -> [String: String] {
        let answer = OneShot<[String: String]?>()
        let timer = Task {
            try await clock.sleep(seconds: 5)
            if answer.resume(nil) {
                logger.warning("The request interceptor did not call its completion block within 5 s; sending no extra headers")
            }
        }
        addAdditionalHeaderFields(url) { headers in answer.resume(headers) }
        let offered = await answer.value()
        timer.cancel()
        guard let offered else { return [:] }
        var accepted: [String: String] = [:]
        for (name, value) in offered {
            if Self.isAllowedHeaderName(name) {
                accepted[name] = value
            } else {
                logger.warning(
                    "Dropped interceptor header '\(name)': names must start with x- and not x-ms-, x-client-, x-broker- or x-app-")
            }
        }
        return accepted
    }

    package static func isAllowedHeaderName(_ name: String) -> Bool {
        let lowered = name.lowercased()
        guard lowered.hasPrefix("x-"), lowered.count > 2 else { return false }
        let reserved = ["x-ms-", "x-client-", "x-broker-", "x-app-"]
        guard !reserved.contains(where: lowered.hasPrefix) else { return false }
        // A header name is an HTTP token.
        let token = Set("abcdefghijklmnopqrstuvwxyz0123456789!#$%&'*+-.^_`|~")
        return lowered.allSatisfy(token.contains)
    }
}
