import Foundation

/// The HTML of the browser sign-in pages. No JavaScript, stable `name`s and `id`s, so that a
/// headless form client can drive them (the contract is in docs/emulator.md).
enum AuthorizePage {
    /// The page's content: which form, and what the person sees.
    enum Form {
        case signIn(username: String?)
        case otp(username: String, maskedAddress: String)
        /// One checked box per requested resource scope.
        case consent(appName: String, username: String, scopes: [String])
    }

    static func page(form: Form, flow: String, action: String, appName: String, message: String?, notice: String?) -> EmulatorResponse {
        var html = ""
        let step: String
        switch form {
        case .signIn: step = "sign_in"
        case .otp: step = "otp"
        case .consent: step = "consent"
        }
        html += #"<form method="post" action="\#(escape(action))" id="authorize-form" data-step="\#(step)">"# + "\n"
        html += #"<input type="hidden" name="flow" id="flow" value="\#(escape(flow))">"# + "\n"
        if let notice { html += #"<p id="notice">\#(escape(notice))</p>"# + "\n" }
        if let message { html += #"<p id="message" role="alert">\#(escape(message))</p>"# + "\n" }
        switch form {
        case .signIn(let username):
            html += "<h1>Sign in</h1>\n<p>to continue to \(escape(appName))</p>\n"
            html +=
                #"<label for="username">Email</label> <input type="email" name="username" id="username" value="\#(escape(username ?? ""))" autocomplete="username">"#
            html += "\n"
            html +=
                #"<label for="password">Password</label> <input type="password" name="password" id="password" autocomplete="current-password">"#
            html += "\n"
            html += button("password", "Sign in") + button("send_code", "Email me a code instead") + button("cancel", "Cancel")
        case .otp(let username, let masked):
            html += "<h1>Enter code</h1>\n<p>We emailed a code to \(escape(masked)).</p>\n"
            html += #"<input type="hidden" name="username" id="username" value="\#(escape(username))">"# + "\n"
            html +=
                #"<label for="otp">Code</label> <input type="text" name="otp" id="otp" inputmode="numeric" autocomplete="one-time-code">"#
            html += "\n"
            html += button("verify_code", "Verify") + button("send_code", "Send a new code") + button("cancel", "Cancel")
        case .consent(let appName, let username, let scopes):
            html += "<h1>Permissions requested</h1>\n<p>\(escape(appName)) would like to, for \(escape(username)):</p>\n<ul>\n"
            for (index, scope) in scopes.enumerated() {
                html += #"<li><input type="checkbox" name="scope" id="scope-\#(index)" value="\#(escape(scope))" checked>"#
                html += #" <label for="scope-\#(index)">\#(escape(scope))</label></li>"# + "\n"
            }
            html += "</ul>\n" + button("accept", "Accept") + button("decline", "Decline")
        }
        html += "</form>\n"
        return document(status: 200, title: "Sign in", body: html)
    }

    private static func button(_ value: String, _ label: String) -> String {
        #"<button type="submit" name="action" value="\#(value)" id="action-\#(value)">\#(escape(label))</button>"# + "\n"
    }

    /// A page that ends the request without a redirect (unknown client, unregistered redirect
    /// URI, expired page): the code and description in stable ids.
    static func error(status: Int, code: Int, description: String) -> EmulatorResponse {
        let body = """
            <h1>Sorry, but we're having trouble signing you in.</h1>
            <p id="error-code">AADSTS\(code)</p>
            <p id="error-description">AADSTS\(code): \(escape(description))</p>

            """
        return document(status: status, title: "Sign-in error", body: body)
    }

    static func signedOut() -> EmulatorResponse {
        document(
            status: 200, title: "Signed out", body: "<h1 id=\"signed-out\">You have signed out.</h1>\n<p>You can close this window.</p>\n")
    }

    static func document(status: Int, title: String, body: String) -> EmulatorResponse {
        let html = """
            <!DOCTYPE html>
            <html lang="en">
            <head><meta charset="utf-8"><title>\(escape(title))</title></head>
            <body>
            \(body)</body>
            </html>

            """
        return EmulatorResponse(status: status, headers: htmlHeaders, body: Data(html.utf8))
    }

    static let htmlHeaders = [
        "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "Pragma": "no-cache",
        "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY",
        "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
    ]

    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
