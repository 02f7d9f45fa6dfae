import Foundation
import TestSupport
import Testing

@testable import MSAL

/// The sign-up and reset rules of the V2 flow machine (docs/usage.md#v2-sign-up-and-password-reset) without the SDK or a network.
@Suite struct V2FlowMachineSignUpResetTests {
    let id = Answer.first
    let link = URL(string: "https://contoso.ciamlogin.com/t/api/v2.0/signup/submitattributes")!

    func descriptor(_ id: String, required: Bool = true) -> V2AttributeDescriptor { V2AttributeDescriptor(id: id, required: required) }

    /// A sign-up machine waiting for an answer to a step that has already sent `sent`.
    func waiting(_ scenario: MSALNativeAuthFlowScenario = .signUp, attributes: [String: V2AttributeValue] = [:], sent: Set<String> = [])
        -> V2FlowMachine
    {
        var m = V2FlowMachine(username: Fixture.username, scopes: ["openid"], claims: nil, scenario: scenario, attributes: attributes)
        m.state = .interacting(.submitAttributes, m.interaction(.firstFactor, sent: sent))
        return m
    }

    func collect(_ m: inout V2FlowMachine, _ descriptors: [V2AttributeDescriptor]) -> V2FlowMachine.Action {
        m.interacted(.answer(.collectAttributes(descriptors, submit: link, token: "s1")), correlationId: id)
    }

    @Test func theSignUpStartsAtTheSignUpLinkWithTheUsername() throws {
        var m = V2FlowMachine(username: Fixture.username, scopes: ["openid"], claims: nil, scenario: .signUp)
        _ = m.start(password: nil, correlationId: id)
        let journeys = V2Journeys(links: ["sign_in": .success(link), "sign_up": .success(link.appendingPathComponent("up"))])
        guard
            case .interact(let url, .startSignUp(Fixture.username), _) = try call(
                m.entered(.answer(.entryInvitation(token: "c0", journeys)), correlationId: id))
        else { throw UnexpectedOutcome("expected sign_up") }
        #expect(url.lastPathComponent == "up")
        var reset = V2FlowMachine(username: Fixture.username, scopes: ["openid"], claims: nil, scenario: .passwordReset)
        _ = reset.start(password: nil, correlationId: id)
        let failure = try failure(reset.entered(.answer(.entryInvitation(token: "c0", journeys)), correlationId: id))
        #expect(failure.kind == .generalError && failure.details.message?.contains("reset_password") == true)
    }

    @Test func knownRequiredIdsAreSubmittedAtOnce() throws {
        var m = waiting(attributes: ["displayName": .string("Ada"), "city": .string("London")])
        guard
            case .interact(let url, .attributes(let values), let next) = try call(
                collect(&m, [descriptor("email"), descriptor("displayName")]))
        else { throw UnexpectedOutcome("expected a submit") }
        #expect(url == link && next.token == "s1")
        #expect(values == ["email": .string(Fixture.username), "displayName": .string("Ada")])
        guard case .interacting(.submitAttributes, let context) = m.state, case .signUp(let sent, false) = context.journey else {
            throw UnexpectedOutcome("\(m.state)")
        }
        #expect(sent == ["email", "displayName"])
    }

    @Test func thePasswordIsAskedForWithThePrefill() throws {
        var m = waiting(attributes: ["displayName": .string("Ada")])
        let outcome = try result(collect(&m, [descriptor("password"), descriptor("displayName"), descriptor("city", required: false)]))
        guard case .signUpPasswordRequired(let form, _) = outcome else { throw UnexpectedOutcome("\(outcome)") }
        #expect(form.prefill == ["displayName": .string("Ada")] && form.submit == link)
        var submit = waiting()
        submit.state = .idle
        guard
            case .interact(_, .attributes(let values), _) = try call(
                submit.submitSignUpPassword("pw", form: form, on: Continuation("s1", id)))
        else { throw UnexpectedOutcome("expected the password submit") }
        #expect(values == ["displayName": .string("Ada"), "password": .string("pw")])
    }

    @Test func unknownRequiredIdsGoToTheAppAndSoDoIdsAskedAgain() throws {
        var m = waiting()
        guard case .attributesRequired(let asked, let form, _) = try result(collect(&m, [descriptor("displayName")])) else {
            throw UnexpectedOutcome("expected the attributes state")
        }
        #expect(asked.map(\.id) == ["displayName"] && form.prefill.isEmpty)
        var again = waiting(attributes: ["displayName": .string("Ada")], sent: ["displayName"])
        guard case .attributesRequired = try result(collect(&again, [descriptor("displayName")])) else {
            throw UnexpectedOutcome("an id asked again goes to the app")
        }
        var optionalOnly = waiting()
        guard case .attributesRequired = try result(collect(&optionalOnly, [descriptor("city", required: false)])) else {
            throw UnexpectedOutcome("nothing to autofill goes to the app")
        }
    }

    @Test func attributesOutsideASignUpAreAGeneralError() throws {
        var m = waiting(.signIn)
        #expect(try failure(collect(&m, [descriptor("email")])).kind == .generalError)
    }

    @Test func continueEndsASignUpOrResetInASignInAfterOutcome() throws {
        for scenario in [MSALNativeAuthFlowScenario.signUp, .passwordReset] {
            var m = waiting(scenario)
            guard
                case .signInAfter(let url, let next) = try result(
                    m.interacted(.answer(.resume(token: "s9", link: link)), correlationId: id))
            else { throw UnexpectedOutcome("expected sign-in-after") }
            #expect(url == link && next.token == "s9")
        }
        var signIn = waiting(.signIn)
        guard case .resume = try call(signIn.interacted(.answer(.resume(token: "s9", link: link)), correlationId: id)) else {
            throw UnexpectedOutcome("inline recovery resumes the sign-in")
        }
        var after = V2FlowMachine(username: Fixture.username, scopes: ["openid", "api"], claims: nil, scenario: .signUp)
        guard case .resume(link, let next) = try call(after.signInAfter(link, on: Continuation("s9", id))) else {
            throw UnexpectedOutcome("expected the resume")
        }
        #expect(next.token == "s9")
        guard case .redeem("code", _) = try call(after.resumed(.answer(.code("code")), correlationId: id)) else {
            throw UnexpectedOutcome("expected the token request")
        }
    }

    @Test func pollingRules() throws {
        var m = waiting(.passwordReset)
        m.state = .interacting(.submitNewPassword, m.interaction(.recovery))
        var delays: [Double] = []
        for interval in [nil, 100, 6000, 2000, nil] as [Int?] {
            guard
                case .poll(_, _, let delay) = try call(
                    m.interacted(.answer(.poll(link, intervalMilliseconds: interval, token: "p")), correlationId: id))
            else { throw UnexpectedOutcome("expected a poll") }
            delays.append(delay)
        }
        #expect(delays == [0, 0.25, 5, 2, 1.5])
        let failure = try failure(m.interacted(.answer(.poll(link, intervalMilliseconds: nil, token: "p")), correlationId: id))
        #expect(failure.kind == .generalError && failure.details.message == "The password update did not finish after 5 polls")
    }

    @Test func theNewPasswordIsAPutAndEmptyIsRefused() throws {
        var m = V2FlowMachine(username: Fixture.username, scopes: ["openid"], claims: nil, scenario: .passwordReset)
        let update = V2Verification(methodId: "m-p", type: "password", hint: nil, codeLength: nil, submit: link, resend: nil, recover: nil)
        guard case .interact(_, let body, _) = try call(m.submitNewPassword("new", verification: update, on: Continuation("p", id))) else {
            throw UnexpectedOutcome("expected the update")
        }
        #expect(body == .newPassword("new") && body.httpMethod == "PUT" && V2Body.tokenOnly.httpMethod == "POST")
        var empty = V2FlowMachine(username: Fixture.username, scopes: ["openid"], claims: nil, scenario: .passwordReset)
        #expect(try failure(empty.submitNewPassword("", verification: update, on: Continuation("p", id))).kind == .invalidPassword)
    }
}
