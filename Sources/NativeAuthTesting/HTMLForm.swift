import Foundation

/// The form of an HTML page, read the way a browser submits it: the `<form>`'s action and
/// `data-step`, its hidden inputs, the names of its inputs, its checked checkboxes and its
/// `name="action"` buttons. Made for the emulator's sign-in pages (no JavaScript, one form).
public struct HTMLForm: Sendable {
    /// The page's HTML, as received.
    public let html: String

    /// The form of the page `html`.
    public init(html: String) {
        self.html = html
    }

    /// The `<form>`'s `action`: where the page submits to.
    public var action: String? { tags("form").first.flatMap { Self.attribute("action", in: $0) } }
    /// The page's `data-step` (`sign_in`, `otp`, `consent`).
    public var step: String? { tags("form").first.flatMap { Self.attribute("data-step", in: $0) } }
    /// The hidden inputs, by name (the page's single-use `flow` among them).
    public var hidden: [String: String] {
        var out: [String: String] = [:]
        for tag in tags("input") where Self.attribute("type", in: tag) == "hidden" {
            if let name = Self.attribute("name", in: tag) { out[name] = Self.attribute("value", in: tag) ?? "" }
        }
        return out
    }
    /// The names of every `<input>`, hidden ones included.
    public var inputs: [String] { tags("input").compactMap { Self.attribute("name", in: $0) } }
    /// The values of the checked checkboxes (on the consent page, the scopes offered).
    public var checkboxes: [String] {
        tags("input").filter { Self.attribute("type", in: $0) == "checkbox" && $0.contains(" checked") }.compactMap {
            Self.attribute("value", in: $0)
        }
    }
    /// The values of the `name="action"` buttons, for example `password`, `send_code`, `cancel`.
    public var buttons: [String] {
        tags("button").filter { Self.attribute("name", in: $0) == "action" }.compactMap { Self.attribute("value", in: $0) }
    }
    /// The text of `<p id="message">`, when the page shows one.
    public var message: String? { paragraph("message") }
    /// The text of `<p id="error-code">` on an error page.
    public var errorCode: String? { paragraph("error-code") }

    private func paragraph(_ id: String) -> String? {
        guard let range = html.range(of: #"<p id="\#(id)"[^>]*>[^<]*"#, options: .regularExpression) else { return nil }
        return Self.unescape(String(html[range].drop(while: { $0 != ">" }).dropFirst()))
    }

    private static func attribute(_ name: String, in tag: String) -> String? {
        guard let range = tag.range(of: #"\b\#(name)="([^"]*)""#, options: .regularExpression) else { return nil }
        let quoted = tag[range].drop(while: { $0 != "\"" }).dropFirst().dropLast()
        return unescape(String(quoted))
    }

    private static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    private func tags(_ name: String) -> [String] {
        var found: [String] = []
        var rest = html[...]
        while let range = rest.range(of: "<\(name)\\b[^>]*>", options: .regularExpression) {
            found.append(String(rest[range]))
            rest = rest[range.upperBound...]
        }
        return found
    }
}
