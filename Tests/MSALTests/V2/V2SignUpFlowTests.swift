import Foundation
import MSAL
import NativeAuthTesting
import TestSupport
import Testing

@testable import MSAL

/// The V2 sign-up journeys (docs/protocol.md#the-journeys) through the public API, `async` and delegate
/// forms, over a strict stub transport answering as the emulator does.
@Suite struct V2SignUpFlowTests {
    /// Sign-up up to the password: email autofilled, the code, then the password asked for with displayName autofilled.
    func signUpToPassword(_ h: Harness, parameters: MSALNativeAuthSignUpParametersV2) async throws -> MSALNativeAuthPasswordRequiredState {
        h.v2SignUpStart(V2Fixture.collectAttributes([V2Fixture.attribute("email", label: "Email")], token: "s1"))
        h.v2(V2Fixture.submitAttributesPath, 200, V2Fixture.verify("m-new", "email", hint: "a****a@c****o", codeLength: 8, token: "s2"))
        let code = try expectState(try await h.app.signUpV2(parameters: parameters), MSALNativeAuthCodeRequiredState.self)
        #expect(code.scenario == .signUp && code.sentTo == "a****a@c****o" && code.codeLength == 8)
        let asked = [
            V2Fixture.attribute("password", "password", label: "Password"), V2Fixture.attribute("displayName", label: "Display name"),
            V2Fixture.attribute("city", required: false, label: "City"),
        ]
        h.v2(V2Fixture.path("auth/methods/email/m-new/verify"), 200, V2Fixture.collectAttributes(asked, token: "s3"))
        return try expectState(try await code.submitCode(Fixture.code), MSALNativeAuthPasswordRequiredState.self)
    }

    var parameters: MSALNativeAuthSignUpParametersV2 {
        let parameters = MSALNativeAuthSignUpParametersV2(username: Fixture.username)
        parameters.attributes = ["displayName": "Ada", "email": "other@contoso.com", "age": 36]
        return parameters
    }

    @Test func signUpWithAttributesAndPasswordThenSignIn() async throws {
        let h = try Harness()
        let password = try await signUpToPassword(h, parameters: parameters)
        #expect(password.scenario == .signUp && !password.canRecoverPassword)
        h.v2(V2Fixture.submitAttributesPath, 200, V2Fixture.continued(token: "s4"))
        let after = try expectState(try await password.submitPassword(Fixture.password), MSALNativeAuthSignInAfterSignUpState.self)
        #expect(after.scenario == .signUp)
        h.v2Redeem()
        let signInParameters = MSALNativeAuthSignInAfterSignUpParameters()
        signInParameters.scopes = ["api://todo/ToDoList.Read"]
        guard case .completed(let result, .signUp) = try await after.signIn(parameters: signInParameters) else {
            throw UnexpectedOutcome("expected completion")
        }
        #expect(result.account.username == Fixture.username)
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")

        let requests = h.stub.receivedRequests
        try #require(requests.count == 7)
        #expect(requests[1].jsonBody == ["continuationToken": "c0", "username": Fixture.username])
        #expect(requests[2].jsonObject["continuationToken"] as? String == "s1")
        #expect(requests[2].submittedAttributes == ["email": Fixture.username])
        #expect(requests[3].jsonBody == ["continuationToken": "s2", "otp": Fixture.code])
        #expect(requests[4].submittedAttributes == ["password": Fixture.password, "displayName": "Ada"])
        #expect(requests[5].formFields == ["continuation_token": "s4"])
        #expect(requests[6].formFields["scope"] == "api://todo/ToDoList.Read openid profile offline_access")
        #expect(h.log.text.contains("Ignored the sign-up attribute 'email'"))
        #expect(!h.log.text.contains(Fixture.password))
    }

    @Test func aRefusedAttributeNamesItAndKeepsTheState() async throws {
        let h = try Harness()
        let password = try await signUpToPassword(h, parameters: parameters)
        h.v2(
            V2Fixture.submitAttributesPath, 400,
            V2Fixture.attributeError("attributeValidationError", detail: "invalidAttributeValue", ids: ["displayName"], aadsts: 1_002_027))
        let error = try await flowError { () async throws(MSALNativeAuthFlowError) in try await password.submitPassword(Fixture.password) }
        #expect(error.isInvalidAttributes && error.errorDescription?.contains("displayName") == true && error.errorCodes == [1_002_027])
        #expect(error.invalidAttributeNames == ["displayName"])
        h.v2(
            V2Fixture.submitAttributesPath, 400,
            V2Fixture.attributeError("attributeValidationError", detail: "passwordPolicyViolation", ids: ["password"], aadsts: 1_002_027))
        let weak = try await flowError { () async throws(MSALNativeAuthFlowError) in try await password.submitPassword("weak") }
        #expect(weak.isInvalidPassword && !weak.isInvalidAttributes && weak.invalidAttributeNames.isEmpty)
        h.v2(V2Fixture.submitAttributesPath, 200, V2Fixture.continued(token: "s4"))
        _ = try expectState(try await password.submitPassword(Fixture.password), MSALNativeAuthSignInAfterSignUpState.self)
        #expect(h.stub.receivedRequests.last?.jsonObject["continuationToken"] as? String == "s3")
    }

    @Test func missingRequiredAttributesGoToTheApp() async throws {
        let h = try Harness()
        let password = try await signUpToPassword(h, parameters: MSALNativeAuthSignUpParametersV2(username: Fixture.username))
        h.v2(
            V2Fixture.submitAttributesPath, 200,
            V2Fixture.collectAttributes([V2Fixture.attribute("displayName", label: "Name")], token: "s5"))
        let attributes = try expectState(try await password.submitPassword(Fixture.password), MSALNativeAuthAttributesRequiredState.self)
        let descriptor = try #require(attributes.attributes.first)
        #expect(descriptor.name == "displayName" && descriptor.required && descriptor.label == "Name" && descriptor.canChange)
        #expect(!descriptor.isHidden && descriptor.type == "text" && descriptor.options == nil)
        h.v2(V2Fixture.submitAttributesPath, 200, V2Fixture.continued(token: "s6"))
        _ = try expectState(
            try await attributes.submitAttributes(["displayName": "Ada", "newsletter": true]), MSALNativeAuthSignInAfterSignUpState.self)
        let last = try #require(h.stub.receivedRequests.last)
        #expect(last.jsonObject["continuationToken"] as? String == "s5")
        #expect(last.jsonObject["attributes"] as? [String: Any] != nil && last.submittedAttributes["displayName"] == "Ada")
        #expect((last.jsonObject["attributes"] as? [String: Any])?["newsletter"] as? Bool == true)
    }

    @Test func theV1ParametersPasswordIsSubmittedWhenAsked() async throws {
        let h = try Harness()
        let parameters = MSALNativeAuthSignUpParameters(username: Fixture.username)
        parameters.password = Fixture.password
        parameters.attributes = ["displayName": "Ada"]
        h.v2SignUpStart(V2Fixture.collectAttributes([V2Fixture.attribute("email")], token: "s1"))
        h.v2(V2Fixture.submitAttributesPath, 200, V2Fixture.verify("m-new", "email", codeLength: 8, token: "s2"))
        let code = try expectState(try await h.app.signUpV2(parameters: parameters), MSALNativeAuthCodeRequiredState.self)
        h.v2(
            V2Fixture.path("auth/methods/email/m-new/verify"), 200,
            V2Fixture.collectAttributes([V2Fixture.attribute("password", "password"), V2Fixture.attribute("displayName")], token: "s3"))
        h.v2(V2Fixture.submitAttributesPath, 200, V2Fixture.continued(token: "s4"))
        _ = try expectState(try await code.submitCode(Fixture.code), MSALNativeAuthSignInAfterSignUpState.self)
        #expect(h.stub.receivedRequests[4].submittedAttributes == ["password": Fixture.password, "displayName": "Ada"])
    }

    @Test func anExistingAccountWithOneMethodIsChallengedThenSignInAfterSignUp() async throws {
        let h = try Harness()
        var discovery = V2Fixture.challenge("singleFactor", V2Fixture.emailMethods, token: "e1")
        discovery["scenario"] = "signup"
        h.v2SignUpStart(discovery)
        h.v2(V2Fixture.path("auth/methods/email/m-e1/challenge"), 200, V2Fixture.verify("m-e1", "email", codeLength: 8, token: "e2"))
        let code = try expectState(
            try await h.app.signUpV2(parameters: MSALNativeAuthSignUpParametersV2(username: Fixture.username)),
            MSALNativeAuthCodeRequiredState.self)
        h.v2(V2Fixture.path("auth/methods/email/m-e1/verify"), 200, V2Fixture.continued(token: "e3"))
        let after = try expectState(try await code.submitCode(Fixture.code), MSALNativeAuthSignInAfterSignUpState.self)
        h.v2Redeem()
        guard case .completed = try await after.signIn() else { throw UnexpectedOutcome("expected completion") }
    }

    @Test func anExistingAccountWithSeveralMethodsIsASelection() async throws {
        let h = try Harness()
        h.v2SignUpStart(V2Fixture.challenge("singleFactor", V2Fixture.firstFactors, token: "e1"))
        let selection = try expectState(
            try await h.app.signUpV2(parameters: MSALNativeAuthSignUpParametersV2(username: Fixture.username)),
            MSALNativeAuthAuthMethodSelectionRequiredState.self)
        #expect(selection.purpose == .existingAccount && selection.authMethods.count == 2 && selection.scenario == .signUp)
    }

    @Test func anExistingAddressAtTheEmailSubmitIsUserAlreadyExists() async throws {
        let h = try Harness()
        h.v2SignUpStart(V2Fixture.collectAttributes([V2Fixture.attribute("email")], token: "s1"))
        h.v2(
            V2Fixture.submitAttributesPath, 400,
            V2Fixture.attributeError("attributeValidationError", detail: "userAlreadyExists", ids: ["email"], aadsts: 1_003_037))
        let error = try await flowError { () async throws(MSALNativeAuthFlowError) in
            try await h.app.signUpV2(parameters: MSALNativeAuthSignUpParametersV2(username: Fixture.username))
        }
        #expect(error.isUserAlreadyExists && !error.isInvalidAttributes)
    }

    @Test func localChecksSendNothing() async throws {
        let h = try Harness()
        let error = try await flowError { () async throws(MSALNativeAuthFlowError) in
            try await h.app.signUpV2(parameters: MSALNativeAuthSignUpParametersV2(username: ""))
        }
        #expect(error.isInvalidUsername && h.stub.receivedRequests.isEmpty)
        let password = try await signUpToPassword(h, parameters: parameters)
        let count = h.stub.receivedRequests.count
        let empty = try await flowError { () async throws(MSALNativeAuthFlowError) in try await password.submitPassword("") }
        #expect(empty.isInvalidPassword && h.stub.receivedRequests.count == count)
    }

    @Test func signUpThroughTheDelegate() async throws {
        let h = try Harness()
        let delegate = V2RecordingDelegate()
        h.v2SignUpStart(V2Fixture.collectAttributes([V2Fixture.attribute("email")], token: "s1"))
        h.v2(V2Fixture.submitAttributesPath, 200, V2Fixture.verify("m-new", "email", codeLength: 8, token: "s2"))
        h.app.signUpV2(parameters: parameters, delegate: delegate)
        let code = try await delegate.state(1, MSALNativeAuthCodeRequiredState.self)
        h.v2(
            V2Fixture.path("auth/methods/email/m-new/verify"), 200,
            V2Fixture.collectAttributes([V2Fixture.attribute("password", "password"), V2Fixture.attribute("displayName")], token: "s3"))
        code.submitCode(Fixture.code, delegate: delegate)
        let password = try await delegate.state(2, MSALNativeAuthPasswordRequiredState.self)
        h.v2(V2Fixture.submitAttributesPath, 200, V2Fixture.continued(token: "s4"))
        password.submitPassword(Fixture.password, delegate: delegate)
        let after = try await delegate.state(3, MSALNativeAuthSignInAfterSignUpState.self)
        h.v2Redeem()
        after.signIn(parameters: MSALNativeAuthSignInAfterSignUpParameters(), delegate: delegate)
        guard case .completed(let result, .signUp) = try await delegate.waitForEvent(count: 4) else {
            throw UnexpectedOutcome("expected completion, got \(await delegate.names)")
        }
        #expect(result.account.username == Fixture.username)
        #expect(
            await delegate.names == ["onCodeRequired", "onPasswordRequired", "onSignInAfterSignUpRequired", "onFlowCompleted"])
    }

    @Test func aDelegateWithoutTheSignInAfterProtocolIsNotImplemented() async throws {
        let h = try Harness()
        let delegate = V2BareDelegate()
        var discovery = V2Fixture.challenge("singleFactor", [V2Fixture.method("m-p", "password")], token: "e1")
        discovery["scenario"] = "signup"
        h.v2SignUpStart(discovery)
        h.v2(V2Fixture.path("auth/methods/password/m-p/challenge"), 200, V2Fixture.verify("m-p", "password", token: "e2"))
        h.app.signUpV2(parameters: MSALNativeAuthSignUpParametersV2(username: Fixture.username), delegate: delegate)
        for _ in 0..<5000 where await delegate.errors.isEmpty { try await Task.sleep(nanoseconds: 1_000_000) }
        let error = try #require(await delegate.errors.first)
        #expect(error.isNotImplemented && error.errorDescription?.contains("MSALNativeAuthPasswordRequiredDelegate") == true)
    }
}
