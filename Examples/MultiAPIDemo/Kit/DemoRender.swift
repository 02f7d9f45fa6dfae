import Foundation

/// Draws the model into a canvas of the model's size.
public func render(_ model: DemoModel) -> Canvas {
    var canvas = Canvas(columns: model.size.columns, rows: model.size.rows)
    let layout = DemoLayout(model)
    let width = model.size.columns

    // Title bar.
    canvas.fill(x: 0, y: 0, count: width, style: .title)
    let title = " MSAL native auth · Call two protected APIs"
    canvas.put(title, x: 0, y: 0, style: .title)
    var mode = model.signInV2 ? " V2 (experimental) · \(model.mode) " : " \(model.mode) "
    // A long tenant host: the V2 indicator shortened rather than over the title.
    if model.signInV2, title.count + mode.count > width { mode = " V2 · \(model.mode) " }
    canvas.put(mode, x: max(0, width - mode.count), y: 0, style: .title)

    // Fields.
    canvas.put("Email", x: 1, y: layout.email.y)
    canvas.put("Password", x: 1, y: layout.password.y)
    drawField(&canvas, model.email, rect: layout.email, masked: false, focused: model.focus == .email)
    drawField(&canvas, model.password, rect: layout.password, masked: true, focused: model.focus == .password)

    // Buttons.
    for button in DemoButton.allCases {
        guard let rect = layout.buttons[button] else { continue }
        let focused = model.focus == .button(button) && model.prompt == nil
        canvas.put("[ \(button.rawValue) ]", x: rect.x, y: rect.y, style: focused ? .focusedButton : .button)
    }
    let status = model.signedInAs.map { "Signed in as \($0)" } ?? "Not signed in"
    if let api2 = layout.buttons[.api2] {
        canvas.put(status, x: api2.x + api2.width + 4, y: api2.y, style: model.signedInAs == nil ? .dim : .success)
    }

    // Result view.
    let lines = layout.resultLines(model.result)
    let room = layout.resultRows
    let first = max(0, min(model.resultScroll, lines.count - room))
    if lines.count > room, room > 0 {
        let last = min(lines.count, first + room)
        heading(&canvas, "Result (lines \(first + 1)-\(last) of \(lines.count), PgUp/PgDn scroll)", y: layout.resultTop - 1, width: width)
    } else {
        heading(&canvas, "Result", y: layout.resultTop - 1, width: width)
    }
    for (offset, line) in lines.dropFirst(first).prefix(room).enumerated() {
        let style: Canvas.Style = line.hasPrefix("Error") || line.hasPrefix("Invalid") || line.hasPrefix("Unsuccessful") ? .error : .normal
        canvas.put(line, x: 1, y: layout.resultTop + offset, style: style)
    }
    if lines.count > first + room, room > 0 {
        canvas.put("…", x: width - 2, y: layout.resultTop + room - 1, style: .dim)
    }

    // Mailbox.
    if let top = layout.mailboxTop, let mailbox = model.mailbox {
        heading(&canvas, "Mailbox (emulator: codes it sent)", y: top, width: width)
        if mailbox.isEmpty {
            canvas.put("No messages yet", x: 1, y: top + 1, style: .dim)
        }
        for (offset, line) in mailbox.prefix(3).enumerated() {
            let room = max(1, width - 2)
            canvas.put(line.count > room ? line.prefix(room - 1) + "…" : line, x: 1, y: top + 1 + offset, style: .mailbox, width: room)
        }
    }

    // Where to sign in when no browser started: over the result view and the mailbox.
    if let address = model.signInAddress, model.prompt == nil {
        let rows = max(0, layout.statusRow - layout.resultTop)
        let lines = signInAddressLines(address, width: width)
        let cut = lines.count > rows
        heading(
            &canvas, "Sign in from a browser" + (cut ? " (cut: enlarge the terminal)" : " · Esc cancels"), y: layout.resultTop - 1,
            width: width)
        for row in 0..<rows {
            canvas.fill(x: 0, y: layout.resultTop + row, count: width, style: .normal)
            if row < lines.count { canvas.put(lines[row], x: 0, y: layout.resultTop + row, style: .normal) }
        }
    }

    // Dialog.
    if let prompt = model.prompt, let box = layout.dialog {
        drawBox(&canvas, box, title: prompt.title)
        let optionLabelWidth = prompt.options.map(\.label.count).max() ?? 0
        for (index, option) in prompt.options.enumerated() {
            let rect = layout.promptOptions[index]
            let focused = model.focus == .promptOption(index)
            let marker = prompt.optionsSubmit ? (focused ? "›" : " ") : (index == prompt.selected ? "(•)" : "( )")
            let label = option.label.padding(toLength: optionLabelWidth, withPad: " ", startingAt: 0)
            let text = " \(marker) \(label)  \(option.detail) "
            canvas.put(text, x: rect.x, y: rect.y, style: focused ? .focusedButton : .button, width: rect.width)
        }
        for (index, field) in prompt.fields.enumerated() {
            let rect = layout.promptFields[index]
            canvas.put(field.label, x: box.x + 2, y: rect.y, style: .dialog)
            if field.choices.isEmpty {
                drawField(&canvas, field.text, rect: rect, masked: field.masked, focused: model.focus == .promptField(index))
            } else {
                // A choice: the value between arrows, or how to choose one.
                let shown = field.text.isEmpty ? "◂ choose with ←/→ ▸" : "◂ \(field.text) ▸"
                drawField(&canvas, shown, rect: rect, masked: false, focused: model.focus == .promptField(index))
            }
        }
        for button in prompt.buttons {
            guard let rect = layout.promptButtons[button] else { continue }
            canvas.put(
                "[ \(button.rawValue) ]", x: rect.x, y: rect.y, style: model.focus == .promptButton(button) ? .focusedButton : .button)
        }
        if let message = prompt.message {
            canvas.put(
                message, x: box.x + 2, y: box.y + box.height - 2,
                style: ["Error", "Invalid", "Blocked"].contains(where: message.hasPrefix) ? .error : .dialog,
                width: box.width - 4)
        }
    }

    // Status line.
    canvas.fill(x: 0, y: layout.statusRow, count: width, style: .dim)
    if model.busy {
        canvas.put(
            " \(Spinner.frames[model.spinnerFrame % Spinner.frames.count]) Working… Esc cancels", x: 0, y: layout.statusRow, style: .heading
        )
    } else {
        let help: String
        if model.prompt == nil {
            help = " Tab/arrows move · Enter press · PgUp/PgDn scroll · mouse click · Ctrl-C quit"
        } else if case .promptOption = model.focus {
            help = " Tab/arrows move · Enter/Space choose · Esc close · Ctrl-C quit"
        } else if case .promptField(let index) = model.focus, model.prompt?.fields[safe: index]?.choices.isEmpty == false {
            help = " ←/→/Space choose · Tab/↑/↓ move · Enter submit · Esc close · Ctrl-C quit"
        } else {
            help = " Tab/arrows move · Enter submit · Esc close · Ctrl-C quit"
        }
        canvas.put(help, x: 0, y: layout.statusRow, style: .dim)
    }
    return canvas
}

/// The rows of the sign-in address panel: the short address, and the `ssh -L` line (one row when
/// it fits, else cut at spaces with a trailing ` \` so that the copied rows still run as one command).
func signInAddressLines(_ address: SignInAddress, width: Int) -> [String] {
    var lines = [
        " No browser could be started here. Open this address in a browser:", "", "   \(address.shortURL)", "",
        " On your own machine, run this first, then open the address there:", "",
    ]
    lines += commandRows(address.sshCommand, indent: "   ", width: width)
    if address.placeholderHost {
        lines += ["", " Replace user@host with how you reach this machine."]
    }
    return lines
}

/// `command` in rows of at most `width` columns after `indent`, cut at spaces, each row but the last
/// ending with ` \` (a shell line continuation) and the next indented two more columns.
private func commandRows(_ command: String, indent: String, width: Int) -> [String] {
    guard indent.count + command.count > width else { return [indent + command] }
    var rows: [String] = []
    var row = ""
    var rowIndent = indent
    for word in command.split(separator: " ") {
        if !row.isEmpty, rowIndent.count + row.count + 1 + word.count + 2 > width {
            rows.append(rowIndent + row + " \\")
            row = ""
            rowIndent = indent + "  "
        }
        row += (row.isEmpty ? "" : " ") + word
    }
    return rows + [rowIndent + row]
}

private func drawField(_ canvas: inout Canvas, _ text: String, rect: DemoLayout.Rect, masked: Bool, focused: Bool) {
    let inner = rect.width - 2
    var shown = masked ? String(repeating: "•", count: text.count) : text
    if focused { shown += "▏" }
    if shown.count > inner { shown = "…" + String(shown.suffix(inner - 1)) }
    canvas.put("[", x: rect.x, y: rect.y, style: .dim)
    canvas.put(
        shown.padding(toLength: inner, withPad: " ", startingAt: 0), x: rect.x + 1, y: rect.y,
        style: focused ? .focusedField : .field)
    canvas.put("]", x: rect.x + rect.width - 1, y: rect.y, style: .dim)
}

extension Array {
    /// The element at `index`, nil outside the array.
    fileprivate subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}

private func heading(_ canvas: inout Canvas, _ title: String, y: Int, width: Int) {
    canvas.put("─ \(title) " + String(repeating: "─", count: max(0, width - title.count - 3)), x: 0, y: y, style: .heading)
}

private func drawBox(_ canvas: inout Canvas, _ box: DemoLayout.Rect, title: String) {
    for row in box.y..<(box.y + box.height) {
        canvas.fill(x: box.x, y: row, count: box.width, style: .dialog)
    }
    let titled = "┌─ \(title) "
    let top =
        titled.count < box.width - 1
        ? titled + String(repeating: "─", count: box.width - titled.count - 1) + "┐" : String(titled.prefix(box.width))
    canvas.put(top, x: box.x, y: box.y, style: .dialog)
    for row in (box.y + 1)..<(box.y + box.height - 1) {
        canvas.put("│", x: box.x, y: row, style: .dialog)
        canvas.put("│", x: box.x + box.width - 1, y: row, style: .dialog)
    }
    canvas.put("└" + String(repeating: "─", count: max(0, box.width - 2)) + "┘", x: box.x, y: box.y + box.height - 1, style: .dialog)
}
