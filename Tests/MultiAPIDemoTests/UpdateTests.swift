import Foundation
import Testing

@testable import MultiAPIDemoKit

/// The pure `update(model, key)`.
@Suite struct UpdateTests {
    private func typed(_ text: String, into model: inout DemoModel) {
        for character in text { _ = update(&model, .character(character)) }
    }

    @Test func tabCyclesThroughFieldsAndButtonsBothWays() {
        var model = DemoModel()
        var seen: [Focus] = [model.focus]
        for _ in 0..<8 {
            _ = update(&model, .tab)
            seen.append(model.focus)
        }
        #expect(
            seen == [
                .email, .password, .button(.signIn), .button(.signUp), .button(.resetPassword), .button(.signOut), .button(.api1),
                .button(.api2), .email,
            ])
        _ = update(&model, .backTab)
        #expect(model.focus == .button(.api2))
        _ = update(&model, .up)
        #expect(model.focus == .button(.api1))
        _ = update(&model, .left)
        #expect(model.focus == .button(.signOut))
        _ = update(&model, .right)
        #expect(model.focus == .button(.api1))
    }

    @Test func typingEditsTheFocusedFieldWithUnicodeAndBackspace() {
        var model = DemoModel()
        typed("zoë@exämple.com", into: &model)
        _ = update(&model, .backspace)
        #expect(model.email == "zoë@exämple.co")
        _ = update(&model, .enter)
        #expect(model.focus == .password)
        typed("秘密 pass", into: &model)
        #expect(model.password == "秘密 pass" && model.email == "zoë@exämple.co")
        _ = update(&model, .left)
        #expect(model.focus == .password, "arrows do not leave a text field sideways")
    }

    @Test func enterInThePasswordFieldSignsIn() {
        var model = DemoModel()
        model.focus = .password
        #expect(update(&model, .enter) == [.press(.signIn)])
    }

    @Test func buttonsPressWithEnterOrSpaceButNotWhileBusy() {
        var model = DemoModel()
        model.focus = .button(.api1)
        #expect(update(&model, .enter) == [.press(.api1)])
        #expect(update(&model, .character(" ")) == [.press(.api1)])
        model.busy = true
        #expect(update(&model, .enter) == [])
        model.focus = .email
        typed("a", into: &model)
        #expect(model.email == "a", "keys are still answered while busy")
    }

    @Test func escapeCancelsWorkThenClosesTheDialog() {
        var model = DemoModel()
        model.prompt = Prompt(
            kind: .signInCode, title: "Code", fields: [Prompt.Field(label: "Code")], buttons: [.submit, .resend, .cancel])
        model.focus = .promptField(0)
        model.busy = true
        #expect(update(&model, .escape) == [.cancelOperation])
        model.busy = false
        #expect(update(&model, .escape) == [.cancelPrompt])
        #expect(model.prompt == nil && model.focus == .email)
        #expect(update(&model, .escape) == [])
    }

    @Test func theDialogOwnsTheFocusAndSubmitsItsFields() {
        var model = DemoModel()
        model.prompt = Prompt(
            kind: .attributes, title: "About you", fields: [Prompt.Field(label: "displayName"), Prompt.Field(label: "city")],
            buttons: [.submit, .cancel])
        model.focus = .promptField(0)
        typed("Ada", into: &model)
        _ = update(&model, .enter)
        #expect(model.focus == .promptField(1))
        typed("Oslo", into: &model)
        #expect(update(&model, .enter) == [.submit(["Ada", "Oslo"])])
        _ = update(&model, .tab)
        _ = update(&model, .tab)
        #expect(model.focus == .promptButton(.cancel))
        _ = update(&model, .tab)
        #expect(model.focus == .promptField(0), "focus stays inside the dialog")
    }

    @Test func clicksFocusAndPress() {
        var model = DemoModel()
        let layout = DemoLayout(model)
        let api2 = layout.buttons[.api2]!
        #expect(update(&model, .click(x: api2.x + 1, y: api2.y)) == [.press(.api2)])
        #expect(update(&model, .click(x: layout.password.x + 3, y: layout.password.y)) == [])
        #expect(model.focus == .password)
        #expect(update(&model, .click(x: 79, y: 20)) == [])
    }

    @Test func resizeTickAndInterrupt() {
        var model = DemoModel()
        _ = update(&model, .resize(columns: 120, rows: 40))
        #expect(model.size == DemoModel.Size(columns: 120, rows: 40))
        model.busy = true
        _ = update(&model, .tick)
        #expect(model.spinnerFrame == 1)
        #expect(update(&model, .interrupt) == [.quit])
        #expect(model.quit)
    }

    private var picker: DemoModel {
        var model = DemoModel()
        model.prompt = Prompt(
            kind: .mfaMethod, title: "Second factor",
            options: [
                Prompt.Option(label: "Email", detail: "a***p@ex*****e.net"),
                Prompt.Option(label: "SMS", detail: "+*******0100"),
            ],
            optionsSubmit: true, fields: [], buttons: [.cancel])
        model.focus = .promptOption(0)
        return model
    }

    @Test func thePickerCyclesItsRowsThenItsButtonsAndChoosesWithEnterOrSpace() {
        var model = picker
        #expect(model.focusOrder == [.promptOption(0), .promptOption(1), .promptButton(.cancel)])
        _ = update(&model, .down)
        #expect(model.focus == .promptOption(1))
        #expect(update(&model, .enter) == [.choose(1)])
        #expect(model.prompt?.selected == 1)
        _ = update(&model, .up)
        #expect(update(&model, .character(" ")) == [.choose(0)])
        _ = update(&model, .tab)
        _ = update(&model, .tab)
        #expect(model.focus == .promptButton(.cancel))
        _ = update(&model, .tab)
        #expect(model.focus == .promptOption(0), "focus stays inside the dialog")
        _ = update(&model, .character("x"))
        #expect(model.prompt?.options.count == 2 && model.email.isEmpty, "typing on a row edits nothing")
    }

    @Test func thePickerChoosesNothingWhileBusy() {
        var model = picker
        model.busy = true
        #expect(update(&model, .enter) == [])
        #expect(update(&model, .escape) == [.cancelOperation])
    }

    @Test func aClickOnARowFocusesAndChoosesIt() {
        var model = picker
        let layout = DemoLayout(model)
        #expect(layout.promptOptions.count == 2)
        let sms = layout.promptOptions[1]
        #expect(update(&model, .click(x: sms.x + sms.width - 2, y: sms.y)) == [.choose(1)])
        #expect(model.focus == .promptOption(1))
        let cancel = layout.promptButtons[.cancel]!
        #expect(sms.y < cancel.y, "rows sit above the buttons")
        #expect(update(&model, .click(x: cancel.x, y: cancel.y)) == [.cancelPrompt])
        #expect(model.prompt == nil && model.focus == .email)
    }

    @Test func aRadioRowOnlyMarksItselfAndMovesOnToTheField() {
        var model = DemoModel()
        model.prompt = Prompt(
            kind: .registerMethod, title: "Register", options: [Prompt.Option(label: "Email"), Prompt.Option(label: "SMS")],
            fields: [Prompt.Field(label: "Contact")], buttons: [.submit, .cancel])
        model.focus = .promptOption(0)
        #expect(
            model.focusOrder == [.promptOption(0), .promptOption(1), .promptField(0), .promptButton(.submit), .promptButton(.cancel)])
        _ = update(&model, .tab)
        #expect(update(&model, .character(" ")) == [])
        #expect(model.prompt?.selected == 1 && model.focus == .promptField(0))
        typed("+15550123", into: &model)
        #expect(update(&model, .enter) == [.submit(["+15550123"])])
        let layout = DemoLayout(model)
        let email = layout.promptOptions[0]
        #expect(update(&model, .click(x: email.x + 1, y: email.y)) == [])
        #expect(model.prompt?.selected == 0 && model.focus == .promptField(0))
        #expect(layout.promptFields[0].y == email.y + 2, "the field comes after the rows")
    }

    @Test func theCodeDialogsOtherMethodButton() {
        var model = DemoModel()
        model.prompt = Prompt(
            kind: .mfaCode, title: "Code", fields: [Prompt.Field(label: "Code")], buttons: [.submit, .resend, .otherMethod, .cancel])
        model.focus = .promptButton(.otherMethod)
        #expect(update(&model, .enter) == [.otherMethod])
        model.busy = true
        #expect(update(&model, .enter) == [])
    }

    @Test func pageKeysScrollALongResultWithinItsLines() {
        var model = DemoModel()
        model.mailbox = []
        model.result = (1...30).map { "line \($0)" }.joined(separator: "\n")
        let room = DemoLayout(model).resultRows
        #expect(room == 11)
        _ = update(&model, .pageDown)
        #expect(model.resultScroll == 10)
        _ = update(&model, .pageDown)
        _ = update(&model, .pageDown)
        #expect(model.resultScroll == 30 - room, "stops at the last page")
        _ = update(&model, .pageUp)
        #expect(model.resultScroll == 30 - room - 10)
        for _ in 0..<5 { _ = update(&model, .pageUp) }
        #expect(model.resultScroll == 0)
        model.result = "short"
        _ = update(&model, .pageDown)
        #expect(model.resultScroll == 0, "a result that fits does not scroll")
    }

    private var offer: DemoModel {
        var model = DemoModel()
        model.mailbox = []
        model.signedInAs = "ada@example.com"
        model.result = "API 2 asks for a stronger sign-in.\nPress Continue in browser to sign in there."
        model.browserOffered = true
        model.focus = .button(.continueInBrowser)
        return model
    }

    @Test func continueInBrowserIsInTheFocusOrderOnlyWhileOffered() {
        var model = DemoModel()
        #expect(!model.focusOrder.contains(.button(.continueInBrowser)))
        model = offer
        #expect(model.focusOrder.last == .button(.continueInBrowser), "after API 2: it sits under the buttons")
        _ = update(&model, .tab)
        #expect(model.focus == .email)
        _ = update(&model, .backTab)
        #expect(model.focus == .button(.continueInBrowser))
        _ = update(&model, .left)
        #expect(model.focus == .button(.api2))
        _ = update(&model, .right)
        #expect(model.focus == .button(.continueInBrowser))
    }

    @Test func continueInBrowserPressesWithEnterSpaceOrAClickButNotWhileBusy() throws {
        var model = offer
        #expect(update(&model, .enter) == [.press(.continueInBrowser)])
        #expect(update(&model, .character(" ")) == [.press(.continueInBrowser)])
        let button = try #require(DemoLayout(model).buttons[.continueInBrowser])
        model.focus = .email
        #expect(update(&model, .click(x: button.x + button.width - 1, y: button.y)) == [.press(.continueInBrowser)])
        #expect(model.focus == .button(.continueInBrowser))
        model.busy = true
        #expect(update(&model, .enter) == [])
        #expect(update(&model, .escape) == [.cancelOperation])
        model.busy = false
        model.browserOffered = false
        #expect(DemoLayout(model).buttons[.continueInBrowser] == nil)
        #expect(update(&model, .click(x: button.x + 1, y: button.y)) == [], "no button, nothing to click")
    }

    @Test func withdrawingTheOfferMovesTheFocusToAPI2() {
        var model = offer
        model.withdrawBrowserOffer()
        #expect(!model.browserOffered && model.focus == .button(.api2))
        model = offer
        model.focus = .password
        model.withdrawBrowserOffer()
        #expect(model.focus == .password, "a focus elsewhere stays")
    }

    @Test func theButtonSitsUnderTheTextOrAtTheBottomOfTheView() {
        var model = offer
        var layout = DemoLayout(model)
        #expect(layout.resultRows == 9, "two rows of the 11 go to a blank line and the button")
        #expect(layout.buttons[.continueInBrowser] == DemoLayout.Rect(x: 1, y: layout.resultTop + 3, width: 23, height: 1))
        model.result = (1...30).map { "line \($0)" }.joined(separator: "\n")
        layout = DemoLayout(model)
        #expect(layout.buttons[.continueInBrowser]?.y == layout.resultBottom)
        _ = update(&model, .pageDown)
        _ = update(&model, .pageDown)
        _ = update(&model, .pageDown)
        _ = update(&model, .pageDown)
        #expect(model.resultScroll == 30 - 9, "scrolling keeps to the rows left for text")
        model.prompt = Prompt(kind: .signInCode, title: "Code", fields: [Prompt.Field(label: "Code")], buttons: [.cancel])
        #expect(DemoLayout(model).buttons[.continueInBrowser] == nil, "a dialog covers the result view")
    }

    @Test func claimsChallengesAreReadFromWWWAuthenticate() {
        let json = #"{"access_token":{"acrs":{"essential":true,"value":"c1"}}}"#
        let standard = Data(json.utf8).base64EncodedString()
        let header = #"Bearer realm="", authorization_uri="https://x/authorize", error="insufficient_claims", claims="\#(standard)""#
        #expect(DemoController.claimsChallenge(wwwAuthenticate: header) == json)
        let urlSafe = standard.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .trimmingCharacters(in: CharacterSet(charactersIn: "="))
        #expect(DemoController.claimsChallenge(wwwAuthenticate: #"Bearer claims="\#(urlSafe)""#) == json)
        #expect(DemoController.claimsChallenge(wwwAuthenticate: #"Bearer error="invalid_token""#) == nil)
        #expect(DemoController.claimsChallenge(wwwAuthenticate: #"Bearer xclaims="\#(standard)""#) == nil)
        #expect(DemoController.claimsChallenge(wwwAuthenticate: #"Bearer claims="""#) == nil)
        #expect(DemoController.claimsChallenge(wwwAuthenticate: #"Bearer claims="!!!""#) == nil)
    }

    @Test func wrappingKeepsIndentsAndBreaksBetweenWords() {
        let lines = wrap("{\n  \"motto\" : \"the quick brown fox jumps over the lazy dog\"\n}", width: 24)
        #expect(lines == ["{", "  \"motto\" : \"the quick", "  brown fox jumps over", "  the lazy dog\"", "}"])
        #expect(wrap("abcdefghij", width: 4) == ["abcd", "efgh", "ij"], "a word longer than a line is cut")
    }

    @Test func attributeNamesReadAsLabels() {
        #expect(DemoController.readableLabel("displayName") == "Display name")
        #expect(DemoController.readableLabel("city") == "City")
        #expect(DemoController.readableLabel("postalCode") == "Postal code")
        #expect(DemoController.readableLabel("extension_1234_favouriteColour") == "Extension 1234 favourite colour")
        #expect(DemoController.readableLabel("userID") == "User ID")
    }
}
