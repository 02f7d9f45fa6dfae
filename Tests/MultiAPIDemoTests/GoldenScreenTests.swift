import Foundation
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
        model.mailbox = ["12345678  sign in  to grace@example.com"]
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

    @Test func aLongResultScrolledToItsMiddle() throws {
        var model = base
        model.result = (1...40).map { "line \($0)" }.joined(separator: "\n")
        model.resultScroll = 10
        try check(model, "long-result-scrolled-80x24")
    }
}
