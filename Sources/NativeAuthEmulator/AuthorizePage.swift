import Foundation
import MSAL

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
        html += #"<form method="post" action="\#(HTMLText.escape(action))" id="authorize-form" data-step="\#(step)">"# + "\n"
        html += #"<input type="hidden" name="flow" id="flow" value="\#(HTMLText.escape(flow))">"# + "\n"
        switch form {
        case .signIn: html += "<h1>Sign in</h1>\n<p class=\"lead\">to continue to \(HTMLText.escape(appName))</p>\n"
        case .otp(_, let masked): html += "<h1>Enter code</h1>\n<p class=\"lead\">We emailed a code to \(HTMLText.escape(masked)).</p>\n"
        case .consent(let appName, let username, _):
            html +=
                "<h1>Permissions requested</h1>\n<p class=\"lead\">\(HTMLText.escape(appName)) would like to, for \(HTMLText.escape(username)):</p>\n"
        }
        if let notice { html += #"<p id="notice">\#(HTMLText.escape(notice))</p>"# + "\n" }
        if let message { html += #"<p id="message" role="alert">\#(HTMLText.escape(message))</p>"# + "\n" }
        switch form {
        case .signIn(let username):
            html +=
                #"<label for="username">Email</label> <input type="email" name="username" id="username" value="\#(HTMLText.escape(username ?? ""))" autocomplete="username">"#
            html += "\n"
            html +=
                #"<label for="password">Password</label> <input type="password" name="password" id="password" autocomplete="current-password">"#
            html += "\n"
            html += buttons([
                ("password", "Sign in", .primary), ("send_code", "Email me a code instead", .link), ("cancel", "Cancel", .plain),
            ])
        case .otp(let username, _):
            html += #"<input type="hidden" name="username" id="username" value="\#(HTMLText.escape(username))">"# + "\n"
            html +=
                #"<label for="otp">Code</label> <input type="text" name="otp" id="otp" inputmode="numeric" autocomplete="one-time-code">"#
            html += "\n"
            html += buttons([("verify_code", "Verify", .primary), ("send_code", "Send a new code", .link), ("cancel", "Cancel", .plain)])
        case .consent(_, _, let scopes):
            html += "<ul class=\"scopes\">\n"
            for (index, scope) in scopes.enumerated() {
                html += #"<li><input type="checkbox" name="scope" id="scope-\#(index)" value="\#(HTMLText.escape(scope))" checked>"#
                html += #" <label for="scope-\#(index)">\#(HTMLText.escape(scope))</label></li>"# + "\n"
            }
            html += "</ul>\n" + buttons([("accept", "Accept", .primary), ("decline", "Decline", .plain)])
        }
        html += "</form>\n"
        return document(status: 200, title: "Sign in", appName: appName, body: html)
    }

    /// How a button looks; the first button of a form is the one Enter presses, so it comes first.
    private enum ButtonKind: String {
        case primary, plain, link
    }

    private static func buttons(_ buttons: [(value: String, label: String, kind: ButtonKind)]) -> String {
        var html = "<div class=\"actions\">\n"
        for button in buttons {
            html +=
                #"<button type="submit" name="action" value="\#(HTMLText.escape(button.value))" id="action-\#(HTMLText.escape(button.value))" class="\#(button.kind.rawValue)">"#
                + "\(HTMLText.escape(button.label))</button>\n"
        }
        return html + "</div>\n"
    }

    /// A page that ends the request without a redirect (unknown client, unregistered redirect
    /// URI, expired page): the code and description in stable ids.
    static func error(status: Int, code: Int, description: String, appName: String? = nil) -> EmulatorResponse {
        let body = """
            <h1>Sorry, but we're having trouble signing you in.</h1>
            <p id="error-code">AADSTS\(code)</p>
            <p id="error-description">AADSTS\(code): \(HTMLText.escape(description))</p>

            """
        return document(status: status, title: "Sign-in error", appName: appName, body: body)
    }

    static func signedOut(appName: String? = nil) -> EmulatorResponse {
        document(
            status: 200, title: "Signed out", appName: appName,
            body: "<h1 id=\"signed-out\">You have signed out.</h1>\n<p class=\"lead\">You can close this window.</p>\n")
    }

    /// The name on pages that know no app.
    static let emulatorName = "Native auth emulator"

    /// A whole page: a centred card under the app's name (the registered name of the client, else
    /// the emulator's), usable at phone width, styled inline (the Content-Security-Policy allows
    /// inline styles and nothing else: no scripts, no other origin).
    static func document(status: Int, title: String, appName: String? = nil, body: String) -> EmulatorResponse {
        let name = appName ?? emulatorName
        let html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(HTMLText.escape(title)) · \(HTMLText.escape(name))</title>
            <style>
            \(style)</style>
            </head>
            <body>
            <main class="card">
            <p class="app" id="app-name">\(HTMLText.escape(name))</p>
            \(body)</main>
            <p class="foot">\(HTMLText.escape(emulatorName)): a local stand-in for Microsoft Entra External ID, with test accounts only.</p>
            </body>
            </html>

            """
        return EmulatorResponse(status: status, headers: htmlHeaders, body: Data(html.utf8))
    }

    /// The pages' style sheet: a white card on grey, full width without the card's frame on a phone.
    static let style = """
        *{box-sizing:border-box}
        html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
        body{margin:0;min-height:100vh;display:flex;flex-direction:column;align-items:center;justify-content:center;\
        background:#eef1f5;color:#1b1b1b;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
        .card{width:100%;max-width:440px;margin:24px 16px 8px;padding:36px 40px;background:#fff;border-radius:8px;\
        box-shadow:0 2px 10px rgba(0,0,0,.15);overflow-wrap:break-word}
        .app{margin:0 0 20px;font-weight:600;color:#505050}
        h1{margin:0 0 6px;font-size:24px;font-weight:600;line-height:1.25}
        .lead{margin:0 0 18px;color:#505050}
        label{display:block;margin:14px 0 4px;font-weight:600}
        input[type=email],input[type=password],input[type=text]{display:block;width:100%;padding:9px 10px;font:inherit;\
        border:1px solid #8a8886;border-radius:4px;background:#fff;color:inherit}
        input:focus,button:focus{outline:2px solid #0067b8;outline-offset:1px}
        .actions{display:flex;flex-wrap:wrap;align-items:center;gap:10px;margin-top:24px}
        button{font:inherit;padding:9px 18px;border:1px solid #8a8886;border-radius:4px;background:#fff;color:#1b1b1b;cursor:pointer}
        button.primary{background:#0067b8;border-color:#0067b8;color:#fff;font-weight:600}
        button.link{border-color:transparent;background:none;color:#0067b8;padding:9px 4px;text-decoration:underline}
        #message{margin:0 0 12px;padding:10px 12px;border-left:4px solid #a4262c;background:#fde7e9;color:#a4262c}
        #notice{margin:0 0 12px;padding:10px 12px;border-left:4px solid #0067b8;background:#eff6fc}
        #error-code{margin:12px 0 4px;font-family:ui-monospace,Menlo,Consolas,monospace;color:#505050}
        #error-description{margin:0;color:#505050;overflow-wrap:anywhere}
        ul.scopes{list-style:none;padding:0;margin:12px 0}
        ul.scopes li{display:flex;gap:8px;align-items:flex-start;padding:6px 0;overflow-wrap:anywhere}
        ul.scopes label{display:inline;margin:0;font-weight:400}
        .foot{margin:8px 16px 24px;max-width:440px;color:#605e5c;font-size:13px;text-align:center}
        @media (max-width:480px){body{justify-content:flex-start;background:#fff}\
        .card{margin:0;padding:24px 20px;border-radius:0;box-shadow:none}}

        """

    static let htmlHeaders = [
        "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "Pragma": "no-cache",
        "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY",
        "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
    ]
}
