/// Where everything sits for a model's screen size: shared by `render` (to draw) and `update`
/// (to hit-test mouse clicks), so both agree.
public struct DemoLayout: Sendable {
    public struct Rect: Equatable, Sendable {
        public var x: Int, y: Int, width: Int, height: Int
        func contains(_ px: Int, _ py: Int) -> Bool { px >= x && px < x + width && py >= y && py < y + height }
    }

    public let columns: Int
    public let rows: Int
    public var fieldWidth: Int
    public var email: Rect
    public var password: Rect
    public var buttons: [DemoButton: Rect] = [:]
    public var resultTop: Int
    public var resultBottom: Int
    /// How many lines of the result view show text: all of them, or two fewer when the view
    /// offers "Continue in browser" (a blank line, then the button under the text).
    public var resultRows: Int
    public var mailboxTop: Int?
    public var statusRow: Int
    public var dialog: Rect?
    public var promptOptions: [Rect] = []
    public var promptFields: [Rect] = []
    public var promptButtons: [PromptButton: Rect] = [:]

    public init(_ model: DemoModel) {
        columns = model.size.columns
        rows = model.size.rows
        fieldWidth = max(10, min(50, columns - 14))
        email = Rect(x: 11, y: 2, width: fieldWidth + 2, height: 1)
        password = Rect(x: 11, y: 3, width: fieldWidth + 2, height: 1)
        var x = 1
        for button in [DemoButton.signIn, .signUp, .resetPassword, .signOut] {
            let width = button.rawValue.count + 4
            buttons[button] = Rect(x: x, y: 5, width: width, height: 1)
            x += width + 2
        }
        x = 1
        for button in [DemoButton.api1, .api2] {
            let width = button.rawValue.count + 4
            buttons[button] = Rect(x: x, y: 6, width: width, height: 1)
            x += width + 2
        }
        statusRow = rows - 1
        if model.mailbox != nil {
            mailboxTop = rows - 5
            resultBottom = rows - 6
        } else {
            resultBottom = rows - 2
        }
        resultTop = 8
        let viewRows = max(0, resultBottom - resultTop + 1)
        resultRows = viewRows
        if model.browserOffered, model.prompt == nil {
            resultRows = max(0, viewRows - 2)
            let lines = wrap(model.result, width: max(1, columns - 2)).count
            let button = DemoButton.continueInBrowser
            buttons[button] = Rect(
                x: 1, y: min(resultBottom, resultTop + min(lines, resultRows) + 1), width: button.rawValue.count + 4, height: 1)
        }
        if let prompt = model.prompt {
            let width = max(20, min(columns - 4, 70))
            let rows = prompt.options.count + prompt.fields.count
            let height = 3 + rows + 1 + 1
            let box = Rect(x: max(0, (columns - width) / 2), y: resultTop + 1, width: width, height: height)
            dialog = box
            for index in prompt.options.indices {
                promptOptions.append(Rect(x: box.x + 2, y: box.y + 2 + index, width: box.width - 4, height: 1))
            }
            let labelWidth = prompt.fields.map(\.label.count).max() ?? 0
            for index in prompt.fields.indices {
                promptFields.append(
                    Rect(
                        x: box.x + 3 + labelWidth, y: box.y + 2 + prompt.options.count + index, width: box.width - labelWidth - 6,
                        height: 1))
            }
            var bx = box.x + 2
            for button in prompt.buttons {
                let width = button.rawValue.count + 4
                promptButtons[button] = Rect(x: bx, y: box.y + 2 + rows, width: width, height: 1)
                bx += width + 2
            }
        }
    }

    /// The result text as the view shows it: wrapped to the view's width.
    public func resultLines(_ text: String) -> [String] { wrap(text, width: max(1, columns - 2)) }

    /// What a click at (x, y) lands on.
    public func target(atX x: Int, y: Int) -> Focus? {
        if dialog != nil {
            for (index, rect) in promptOptions.enumerated() where rect.contains(x, y) { return .promptOption(index) }
            for (index, rect) in promptFields.enumerated() where rect.contains(x, y) { return .promptField(index) }
            for (button, rect) in promptButtons where rect.contains(x, y) { return .promptButton(button) }
            return nil
        }
        if email.contains(x, y) { return .email }
        if password.contains(x, y) { return .password }
        for (button, rect) in buttons where rect.contains(x, y) { return .button(button) }
        return nil
    }
}
