import MSAL
import Testing

@testable import NativeAuthCLI

/// Choosing a second factor from what the user typed, and what a waiting sign-in reports.
struct LoginStepTests {
    private let methods = [
        MSALAuthMethod(
            id: "7F1C-A001", challengeType: "oob", channelTargetType: MSALNativeAuthChannelType(value: "email"), loginHint: "a***p@e.net"),
        MSALAuthMethod(
            id: "7f1c-a002", challengeType: "oob", channelTargetType: MSALNativeAuthChannelType(value: "sms"), loginHint: "+***0100"),
    ]

    @Test func aMethodByNumberIdOrChannel() {
        #expect(method("2", in: methods)?.id == "7f1c-a002")
        #expect(method(" 1 ", in: methods)?.id == "7F1C-A001")
        #expect(method("7f1c-a001", in: methods)?.id == "7F1C-A001", "ids compare without case")
        #expect(method("SMS", in: methods)?.id == "7f1c-a002")
        #expect(method("3", in: methods) == nil && method("0", in: methods) == nil && method("fax", in: methods) == nil)
        #expect(describe(methods[1]) == "sms +***0100")
    }

    @Test func theWaitingStepNamesTheNextOption() {
        #expect(PendingStep.Needs.code.nextCommand == "native-auth login --code CODE")
        let waiting = WaitingFor(
            needs: "method", username: "alan@example.com", methods: [WaitingFor.Method(id: "x", channel: "sms", hint: nil)], next: "n")
        let json = waiting.json
        #expect(json["status"] as? String == "needs_input" && json["needs"] as? String == "method" && json["sent_to"] == nil)
        #expect((json["methods"] as? [[String: Any]])?.first?["channel"] as? String == "sms")
    }
}
