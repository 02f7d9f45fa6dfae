import Foundation
import MSAL
import Testing

@testable import MultiAPIDemoKit

/// Screens rendered into an in-memory canvas, compared with `Golden/<name>.txt`.
/// Re-record with `MSAL_RECORD_GOLDEN=1 swift test --filter GoldenScreenTests`.
@Suite struct GoldenScreenTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    private func check(_ model: DemoModel, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let text = render(model).text + "\n"
        let file = Self.directory.appendingPathComponent("\(name).txt")
        if ProcessInfo.processInfo.environment["MSAL_RECORD_GOLDEN"] == "1" {
            try text.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        guard let expected = try? String(contentsOf: file, encoding: .utf8) else {
            Issue.record("missing golden screen \(name)", sourceLocation: sourceLocation)
            return
        }
        #expect(text == expected, "screen differs from \(name).txt:\n\(text)", sourceLocation: sourceLocation)
    }

    private var base: DemoModel {
        var model = DemoModel()
        model.mailbox = []
        model.result = "Offline demo: an emulator of the native-auth API runs inside this program."
        return model
    }

    @Test func start() throws { try check(base, "start-80x24") }

    @Test func signedInWithAPIResult() throws {
        var model = base
        model.email = "ada@example.com"
        model.password = "Analytical-Engine-1843"
        model.focus = .button(.api1)
        model.signedInAs = "ada@example.com"
        model.result = """
            Accessed API successfully using access token.
            HTTP response code: 200
            HTTP response body:
            \(DemoController.describe(["api": "todolist", "items": [["id": 1, "title": "Write the MFA dialogs for the terminal demo, then test them at 80x24 with tmux"]]]))
            """
        model.mailbox = ["12345678  sign in  email to grace@example.com"]
        try check(model, "signed-in-api-80x24")
    }

    @Test func codeDialogWhileBusy() throws {
        var model = base
        model.prompt = Prompt(
            kind: .signInCode, title: "Enter the 8-digit code", fields: [Prompt.Field(label: "Code", text: "1234")],
            buttons: [.submit, .resend, .cancel], message: "Sent to g***e@e*****e.com")
        model.focus = .promptField(0)
        model.busy = true
        model.spinnerFrame = 3
        try check(model, "code-dialog-busy-80x24")
    }

    @Test func theV2IndicatorShortensBeforeALongTenantHost() {
        var model = DemoModel()
        model.signInV2 = true
        model.mode = "contoso.ciamlogin.com"
        let top = render(model).text.split(separator: "\n").first.map(String.init) ?? ""
        #expect(top.hasPrefix(" MSAL native auth · Call two protected APIs ") && top.hasSuffix(" V2 · contoso.ciamlogin.com"), "\(top)")
        model.size = DemoModel.Size(columns: 100, rows: 30)
        #expect(render(model).text.split(separator: "\n").first?.hasSuffix(" V2 (experimental) · contoso.ciamlogin.com") == true)
    }

    @Test func realTenantWithoutMailboxAt100x30() throws {
        var model = DemoModel()
        model.mode = "contoso.ciamlogin.com"
        model.size = DemoModel.Size(columns: 100, rows: 30)
        model.result = "API 2 not configured."
        try check(model, "tenant-100x30")
    }

    @Test func longResultsWrapAndAreCutWithAnEllipsis() throws {
        var model = base
        model.result =
            "Signed in.\n\nScopes:\n[\"api://emulator/todolist/ToDoList.Read\"]\n\nAccess Token:\n"
            + String(repeating: "eyJ0eXAi", count: 120)
        try check(model, "long-result-80x24")
    }

    @Test func startWithTheEmulatorBanner() throws {
        var model = base
        model.result = DemoEnvironment.emulatorBanner
        try check(model, "start-banner-80x24")
    }

    /// `--v2`: the title bar says so, and the banner lists the V2 accounts.
    @Test func signInV2FirstFactorPickerUnderTheIndicator() throws {
        var model = base
        model.signInV2 = true
        model.email = "barbara@example.com"
        model.result = DemoEnvironment.emulatorBanner + "\n" + DemoEnvironment.signInV2Note
        try check(model, "start-v2-80x24")
        let methods = [
            MSALAuthMethod(
                id: "1", challengeType: "password", channelTargetType: MSALNativeAuthChannelType(value: "password"), loginHint: nil),
            MSALAuthMethod(
                id: "2", challengeType: "email", channelTargetType: MSALNativeAuthChannelType(value: "email"),
                loginHint: "b*****a@e*****e.com"),
        ]
        model.result = "Choose how to sign in."
        model.prompt = DemoController.signInMethodPrompt(methods)
        model.focus = .promptOption(1)
        try check(model, "v2-first-factor-80x24")
    }

    /// `--v2` Sign Up: the attributes dialog from the service's descriptors (a required text field, an
    /// optional one, a choice), after a refusal.
    @Test func signUpV2AttributesDialog() throws {
        var model = base
        model.signInV2 = true
        model.email = "lin@example.com"
        model.result = "A few more details are needed."
        model.prompt = DemoController.attributesPrompt([
            MSALNativeAuthRequiredAttribute(name: "displayName", type: "text", required: true, regex: "^.{1,64}$", label: "Display name"),
            MSALNativeAuthRequiredAttribute(name: "city", type: "text", required: false, regex: nil, label: "City"),
            MSALNativeAuthRequiredAttribute(
                name: "country", type: "select", required: true, regex: nil, label: "Country", options: ["FR", "NZ"]),
        ])
        model.prompt?.fields[0].text = "Lin Lanying"
        model.prompt?.fields[2].text = "NZ"
        model.prompt?.message = "Invalid: Display name. Try other values."
        model.focus = .promptField(2)
        try check(model, "v2-attributes-80x24")
    }

    @Test func aLongResultScrolledToItsMiddle() throws {
        var model = base
        model.result = (1...40).map { "line \($0)" }.joined(separator: "\n")
        model.resultScroll = 10
        try check(model, "long-result-scrolled-80x24")
    }

    private static let alanMethods = [
        MSALAuthMethod(
            id: "a1", challengeType: "oob", channelTargetType: MSALNativeAuthChannelType(value: "email"), loginHint: "a***p@ex*****e.net"),
        MSALAuthMethod(
            id: "a2", challengeType: "oob", channelTargetType: MSALNativeAuthChannelType(value: "sms"), loginHint: "+*******0100"),
    ]

    @Test func mfaMethodPicker() throws {
        var model = base
        model.email = "alan@example.com"
        model.password = "Turing-Machine-1936"
        model.result = "A second factor is needed: choose where to send a code."
        model.prompt = DemoController.mfaMethodPrompt(Self.alanMethods, selected: 0)
        model.focus = .promptOption(1)
        try check(model, "mfa-picker-80x24")
    }

    @Test func mfaCodeDialogAfterAWrongCode() throws {
        var model = base
        model.result = "A code was sent to +*******0100."
        model.prompt = Prompt(
            kind: .mfaCode, title: "Second factor: enter the 8-digit code", fields: [Prompt.Field(label: "Code", text: "00000000")],
            buttons: [.submit, .resend, .otherMethod, .cancel], message: "Invalid code. Try again or resend.")
        model.focus = .promptField(0)
        model.mailbox = ["48151623  mfa  sms to +15550100"]
        try check(model, "mfa-code-80x24")
    }

    @Test func registrationDialogWithABlockedContact() throws {
        var model = base
        model.result = "Register a second factor: an email address or a phone number."
        let methods = [
            MSALAuthMethod(
                id: "email", challengeType: "oob", channelTargetType: MSALNativeAuthChannelType(value: "email"),
                loginHint: "k***e@ex*****e.com"),
            MSALAuthMethod(id: "sms", challengeType: "oob", channelTargetType: MSALNativeAuthChannelType(value: "sms"), loginHint: nil),
        ]
        model.prompt = DemoController.registerMethodPrompt(
            methods, selected: 1, contact: "+15550199", message: "Blocked: the service will not send codes there. Try another.")
        model.focus = .promptField(0)
        try check(model, "register-method-80x24")
    }

    @Test func continueInBrowserAfterAClaimsChallenge() throws {
        var model = base
        model.email = "ada@example.com"
        model.password = "Analytical-Engine-1843"
        model.signedInAs = "ada@example.com"
        model.result = """
            API 2 asks for a stronger sign-in (HTTP 401, a claims challenge: {"access_token":{"acrs":{"essential":true,"value":"c1"}}}).
            Press Continue in browser to sign in there.
            """
        model.browserOffered = true
        model.focus = .button(.continueInBrowser)
        try check(model, "browser-offer-80x24")
    }

    /// No browser started: the short address and the ssh line that forwards the listener's port
    /// and the emulator's, instead of the 850-character authorize URL.
    @Test func theAddressToOpenWhenNoBrowserStarts() throws {
        var model = base
        model.email = "ada@example.com"
        model.signedInAs = "ada@example.com"
        model.focus = .button(.api2) // where it goes when the pressed button goes
        model.busy = true
        model.spinnerFrame = 5
        model.result = "No browser could be started. Open http://localhost:45325/ in a browser; the demo waits (Esc cancels)."
        model.signInAddress = SignInAddress(
            shortURL: "http://localhost:45325/", sshCommand: "ssh -L 45325:localhost:45325 -L 40123:127.0.0.1:40123 ada@203.0.113.5",
            placeholderHost: false)
        try check(model, "browser-url-80x24")
        let screen = render(model)
        #expect(screen.line(10) == "   http://localhost:45325/", "the short address on a row of its own")
        #expect(screen.line(14) == "   " + model.signInAddress!.sshCommand, "the ssh line whole on one row")
    }

    /// Not over SSH (no `$SSH_CONNECTION`): the line ends with the placeholder, and the screen says so.
    @Test func theAddressWithAPlaceholderHost() throws {
        var model = base
        model.busy = true
        model.result = "No browser could be started. Open http://localhost:45325/ in a browser; the demo waits (Esc cancels)."
        model.signInAddress = SignInAddress(
            shortURL: "http://localhost:45325/", sshCommand: "ssh -L 45325:localhost:45325 -L 40123:127.0.0.1:40123 user@host",
            placeholderHost: true)
        try check(model, "browser-url-placeholder-80x24")
    }

    /// A line longer than the screen is cut at spaces, each row ending with ` \`: pasted, the rows
    /// run as the one command.
    @Test func aLongSSHLineWrapsAsAShellContinuation() throws {
        var model = base
        model.busy = true
        let command = "ssh -L 45325:localhost:45325 -L 40123:127.0.0.1:40123 -p 2222 katherine.johnson@2001:db8:4006:812::200e"
        model.signInAddress = SignInAddress(shortURL: "http://localhost:45325/", sshCommand: command, placeholderHost: false)
        let screen = render(model)
        let rows = (14..<23).map { screen.line($0) }.prefix { !$0.isEmpty }
        #expect(rows.count == 2, "\(screen.text)")
        #expect(rows.dropLast().allSatisfy { $0.hasSuffix(" \\") && $0.count <= 80 }, "\(screen.text)")
        let joined = rows.map { $0.hasSuffix(" \\") ? String($0.dropLast(2)) : $0 }.map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(joined.joined(separator: " ") == command)
    }

    @Test func mailboxLinesWithChannelsKeepToThePanel() throws {
        var model = base
        model.mailbox = [
            "31415926  registration  email to katherine.johnson.with.a.very.long.address@langley-research.example.org",
            "27182818  mfa  sms to +15550100",
            "16180339  sign in  email to grace@example.com",
        ]
        try check(model, "mailbox-channels-80x24")
    }
}
