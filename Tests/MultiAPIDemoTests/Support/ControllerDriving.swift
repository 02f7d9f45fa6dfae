import Foundation
import Testing

@testable import MultiAPIDemoKit

// Driving a `DemoController` as a person at the keyboard would, for the controller suites
// (ControllerTests, SignInV2ControllerTests, SignUpResetV2ControllerTests, BrowserControllerTests).

/// Waits (bounded: `attempts` rounds of 10 ms) for the model to satisfy `condition`, letting
/// main-actor callbacks run and the timer tick.
@MainActor
func until(_ controller: DemoController, _ what: String, attempts: Int = 1000, _ condition: (DemoModel) -> Bool) async throws {
    for _ in 0..<attempts {
        if condition(controller.model) { return }
        try await Task.sleep(nanoseconds: 10_000_000)
        controller.handle(.tick)
    }
    Issue.record(
        "timed out waiting for \(what); result: \(controller.model.result); prompt: \(String(describing: controller.model.prompt))")
    throw CancellationError()
}

/// Types `text` into the focused field.
@MainActor
func type(_ text: String, _ controller: DemoController) {
    for character in text { controller.handle(.character(character)) }
}

/// Types `text` into the focused field and presses Enter: a dialog's answer.
@MainActor
func answer(_ text: String, _ controller: DemoController) {
    type(text, controller)
    controller.handle(.enter)
}

/// Empties the focused field (at most the 256 characters a field holds), then types `text`.
@MainActor
func retype(_ text: String, _ controller: DemoController) {
    for _ in 0..<256 { controller.handle(.backspace) }
    type(text, controller)
}

/// Chooses the dialog's row whose label is `label` with the keyboard (arrows, then Enter).
@MainActor
func choose(_ label: String, _ controller: DemoController) throws {
    let index = try #require(controller.model.prompt?.options.firstIndex { $0.label == label })
    while controller.model.focus != .promptOption(index) { controller.handle(.down) }
    controller.handle(.enter)
}

/// The newest code the emulator sent over `channel` to `target`.
func code(_ environment: DemoEnvironment, _ channel: String, to target: String) throws -> String {
    try #require(environment.mailbox?.first { $0.channel == channel && $0.target == target }?.code)
}
