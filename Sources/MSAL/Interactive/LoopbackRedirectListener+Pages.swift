import Foundation

/// The page the loopback listener answers an accepted authorization response with: the SDK's plain
/// one, or the app's (`MSALWebviewParameters.successPageHTML` and `errorPageHTML`; docs/decisions.md,
/// "The app's result pages"). Every other answer of the listener (404, 400 "State mismatch", the
/// short address's redirect) keeps the SDK's page.
extension LoopbackRedirectListener {
    /// The app's result pages; nil keeps the SDK's plain page.
    package struct ResultPages: Sendable, Equatable {
        /// Shown after a redirect with a code, exactly as given: nothing in it is replaced, since
        /// the redirect's query holds the code, a credential.
        package var successHTML: String?
        /// Shown after a redirect with an error, with `$error`, `$error_description` and
        /// `$error_subcode` (or `${error}` …) replaced by the redirect's values, HTML-escaped (an
        /// absent value is empty), and `$$` by `$`; any other `$` stays as it is.
        package var errorHTML: String?

        /// The SDK's plain pages unless a page is given.
        package init(successHTML: String? = nil, errorHTML: String? = nil) {
            self.successHTML = successHTML
            self.errorHTML = errorHTML
        }
    }

    /// The whole HTTP answer (`200`, the listener's headers) to an accepted authorization response.
    static func resultPage(for response: AuthorizationResponse, pages: ResultPages) -> [UInt8] {
        guard let error = response.error else {
            if let html = pages.successHTML { return Loop.http(status: 200, reason: "OK", body: html) }
            return Loop.page(status: 200, reason: "OK", text: successText)
        }
        if let html = pages.errorHTML {
            return Loop.http(status: 200, reason: "OK", body: fillErrorPage(html, with: response))
        }
        return Loop.page(status: 200, reason: "OK", text: errorText(for: response, error: error))
    }

    /// `template` with its placeholders filled from `response` (see `ResultPages.errorHTML`), in one
    /// pass: a value that itself contains `$error` is not filled again. The names follow MSAL for
    /// Python's `error_template` (RFC 6749 §4.1.2.1), with `$`, `$name` and `${name}` as Python's
    /// `string.Template` reads them.
    package static func fillErrorPage(_ template: String, with response: AuthorizationResponse) -> String {
        let values = ["error": response.error, "error_description": response.errorDescription, "error_subcode": response.errorSubcode]
        let scalars = Array(template.unicodeScalars)
        var out = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            guard scalars[index] == "$", index + 1 < scalars.count else {
                out.append(scalars[index])
                index += 1
                continue
            }
            if scalars[index + 1] == "$" {
                out.append("$")
                index += 2
                continue
            }
            let braced = scalars[index + 1] == "{"
            let start = index + (braced ? 2 : 1)
            var end = start
            while end < scalars.count, isNameScalar(scalars[end], first: end == start) { end += 1 }
            let name = String(String.UnicodeScalarView(scalars[start..<end]))
            let closed = !braced || (end < scalars.count && scalars[end] == "}")
            guard closed, let value = values[name] else {
                out.append(scalars[index])
                index += 1
                continue
            }
            out.append(contentsOf: HTMLText.escape(value ?? "").unicodeScalars)
            index = braced ? end + 1 : end
        }
        return String(out)
    }

    /// ASCII letters, `_`, and digits after the first: a placeholder's name.
    private static func isNameScalar(_ scalar: Unicode.Scalar, first: Bool) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "_": true
        case "0"..."9": !first
        default: false
        }
    }
}
