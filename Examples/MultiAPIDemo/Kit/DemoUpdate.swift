/// The pure part of the app: a key changes the model and may ask for effects.
public func update(_ model: inout DemoModel, _ key: Key) -> [DemoEffect] {
    switch key {
    case .tick:
        if model.busy { model.spinnerFrame = (model.spinnerFrame + 1) % Spinner.frames.count }
        return []
    case .resize(let columns, let rows):
        model.size = DemoModel.Size(columns: max(1, columns), rows: max(1, rows))
        return []
    case .interrupt:
        model.quit = true
        return [.quit]
    case .escape:
        if model.busy { return [.cancelOperation] }
        if model.prompt != nil {
            model.prompt = nil
            model.focus = .email
            return [.cancelPrompt]
        }
        return []
    case .pageUp, .pageDown:
        scrollResult(&model, pages: key == .pageUp ? -1 : 1)
        return []
    case .tab, .down:
        moveFocus(&model, by: 1)
        return []
    case .backTab, .up:
        moveFocus(&model, by: -1)
        return []
    case .left, .right:
        // Between buttons only; a text field keeps its focus, a choice field steps through its values.
        if stepChoice(&model, by: key == .left ? -1 : 1) { return [] }
        if case .button = model.focus { moveFocus(&model, by: key == .left ? -1 : 1) }
        if case .promptButton = model.focus { moveFocus(&model, by: key == .left ? -1 : 1) }
        return []
    case .character(let character):
        if character == " ", case .button(let button) = model.focus { return press(&model, button) }
        if character == " ", case .promptButton(let button) = model.focus { return pressPrompt(&model, button) }
        if character == " ", case .promptOption(let index) = model.focus { return chooseOption(&model, index) }
        if character == " ", stepChoice(&model, by: 1) { return [] }
        if focusedChoiceField(model) != nil { return [] }
        editFocusedField(&model) { text in
            guard text.count < 256, !character.isNewline else { return }
            text.append(character)
        }
        return []
    case .backspace:
        if focusedChoiceField(model) != nil { return [] }
        editFocusedField(&model) { text in if !text.isEmpty { text.removeLast() } }
        return []
    case .enter:
        switch model.focus {
        case .email:
            model.focus = .password
            return []
        case .password:
            return press(&model, .signIn)
        case .button(let button):
            return press(&model, button)
        case .promptField(let index):
            guard let prompt = model.prompt else { return [] }
            if index + 1 < prompt.fields.count {
                model.focus = .promptField(index + 1)
                return []
            }
            return pressPrompt(&model, .submit)
        case .promptButton(let button):
            return pressPrompt(&model, button)
        case .promptOption(let index):
            return chooseOption(&model, index)
        }
    case .click(let x, let y):
        guard let target = DemoLayout(model).target(atX: x, y: y) else { return [] }
        model.focus = target
        switch target {
        case .button(let button): return press(&model, button)
        case .promptButton(let button): return pressPrompt(&model, button)
        case .promptOption(let index): return chooseOption(&model, index)
        default: return []
        }
    }
}

private func press(_ model: inout DemoModel, _ button: DemoButton) -> [DemoEffect] {
    guard !model.busy else { return [] }
    return [.press(button)]
}

private func pressPrompt(_ model: inout DemoModel, _ button: PromptButton) -> [DemoEffect] {
    guard let prompt = model.prompt else { return [] }
    switch button {
    case .cancel:
        model.prompt = nil
        model.focus = .email
        return [.cancelPrompt]
    case .resend:
        return model.busy ? [] : [.resend]
    case .otherMethod:
        return model.busy ? [] : [.otherMethod]
    case .submit:
        return model.busy ? [] : [.submit(prompt.fields.map(\.text))]
    }
}

/// Enter, Space or a click on a dialog's option: marks it; a picker whose options submit sends it,
/// a radio group moves on to the first field.
private func chooseOption(_ model: inout DemoModel, _ index: Int) -> [DemoEffect] {
    guard var prompt = model.prompt, prompt.options.indices.contains(index) else { return [] }
    if prompt.optionsSubmit {
        guard !model.busy else { return [] }
        prompt.selected = index
        model.prompt = prompt
        return [.choose(index)]
    }
    prompt.selected = index
    model.prompt = prompt
    if !prompt.fields.isEmpty { model.focus = .promptField(0) }
    return []
}

/// PgUp/PgDn: the result view moves by a page less one line, within the text.
private func scrollResult(_ model: inout DemoModel, pages: Int) {
    let layout = DemoLayout(model)
    let room = layout.resultRows
    let total = layout.resultLines(model.result).count
    let target = model.resultScroll + pages * max(1, room - 1)
    model.resultScroll = max(0, min(target, total - room))
}

private func moveFocus(_ model: inout DemoModel, by step: Int) {
    let order = model.focusOrder
    guard !order.isEmpty else { return }
    let index = order.firstIndex(of: model.focus) ?? -step
    model.focus = order[((index + step) % order.count + order.count) % order.count]
}

/// The index of the focused dialog field when it is a choice.
private func focusedChoiceField(_ model: DemoModel) -> Int? {
    guard case .promptField(let index) = model.focus, let prompt = model.prompt, prompt.fields.indices.contains(index),
        !prompt.fields[index].choices.isEmpty
    else { return nil }
    return index
}

/// Steps the focused choice field by `step`; false when the focus is not on one.
private func stepChoice(_ model: inout DemoModel, by step: Int) -> Bool {
    guard let index = focusedChoiceField(model), var prompt = model.prompt, let next = prompt.fields[index].choice(step) else {
        return false
    }
    prompt.fields[index].text = next
    model.prompt = prompt
    return true
}

private func editFocusedField(_ model: inout DemoModel, _ edit: (inout String) -> Void) {
    switch model.focus {
    case .email: edit(&model.email)
    case .password: edit(&model.password)
    case .promptField(let index):
        guard var prompt = model.prompt, prompt.fields.indices.contains(index) else { return }
        edit(&prompt.fields[index].text)
        model.prompt = prompt
    default: break
    }
}

enum Spinner {
    static let frames: [Character] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
}
