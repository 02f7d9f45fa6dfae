import Foundation
import MSAL
import NativeAuthTesting
import TestSupport
import Testing

@testable import MSAL

/// Saved native auth V2 sign-up and password reset states (docs/saved-states.md#version-2-native-auth-v2):
/// each kind the two journeys reach, saved by one application object and continued by another,
/// with the scenario kept, and the refusals of the sign-up and reset members.
@Suite struct V2SavedSignUpResetStateTests {
    typealias T = V2SavedStateTests

    static let authority = "https://contoso.ciamlogin.com/contoso.onmicrosoft.com/"

    /// A sign-up up to its code: email autofilled, the code sent.
    func signUpCode(_ h: Harness, _ parameters: MSALNativeAuthSignUpParametersV2) async throws -> MSALNativeAuthCodeRequiredState {
        h.v2SignUpStart(V2Fixture.collectAttributes([V2Fixture.attribute("email", label: "Email")], token: "s1"))
        h.v2(V2Fixture.submitAttributesPath, 200, V2Fixture.verify("m-new", "email", hint: "a****a@c****o", codeLength: 8, token: "s2"))
        return try expectState(try await h.app.signUpV2(parameters: parameters), MSALNativeAuthCodeRequiredState.self)
    }

    var signUpParameters: MSALNativeAuthSignUpParametersV2 {
        let parameters = MSALNativeAuthSignUpParametersV2(username: Fixture.username)
        parameters.attributes = ["displayName": "Ada", "age": 36, "newsletter": true, "topics": ["math", "engines"]]
        return parameters
    }

    static var passwordAndAttributes: [[String: Any]] {
        [
            V2Fixture.attribute("password", "password", label: "Password"), V2Fixture.attribute("displayName", label: "Display name"),
            V2Fixture.attribute("city", required: false, label: "City"),
        ]
    }

    // MARK: Sign-up

    @Test func aSignUpContinuesElsewhereAtEveryStepWithItsAttributes() async throws {
        let h = try Harness()
        let code = try await signUpCode(h, signUpParameters)
        let codeDocument = try T.object(code.serialized())
        #expect(codeDocument["kind"] as? String == "v2CodeRequired" && codeDocument["scenario"] as? String == "signUp")
        let signUp = try #require(codeDocument["signUp"] as? [String: Any])
        let pending = try #require(signUp["pendingAttributes"] as? [String: Any])
        #expect(pending["displayName"] as? String == "Ada" && pending["age"] as? Int == 36 && pending["newsletter"] as? Bool == true)
        #expect(pending["topics"] as? [String] == ["math", "engines"] && (signUp["submittedIds"] as? [String])?.isEmpty == true)

        // The code, restored: the app's displayName is still offered with the password.
        let (first, restoredCode) = try T.restoredElsewhere(code)
        let code2 = try expectState(restoredCode, MSALNativeAuthCodeRequiredState.self)
        #expect(code2.scenario == .signUp && code2.sentTo == "a****a@c****o")
        first.v2(
            V2Fixture.path("auth/methods/email/m-new/verify"), 200, V2Fixture.collectAttributes(Self.passwordAndAttributes, token: "s3"))
        let password = try expectState(try await code2.submitCode(Fixture.code), MSALNativeAuthPasswordRequiredState.self)
        #expect(first.stubProblems.isEmpty, "\(first.stubProblems)")

        // The sign-up's password state: the submitAttributes link and the ids sent with the password.
        let passwordDocument = try T.object(password.serialized())
        #expect(passwordDocument["kind"] as? String == "v2PasswordRequired" && passwordDocument["scenario"] as? String == "signUp")
        let links = try #require(passwordDocument["links"] as? [String: String])
        #expect(links == ["submitAttributes": Self.authority + "api/v2.0/signup/submitattributes"])
        #expect((passwordDocument["signUp"] as? [String: Any])?["submittedIds"] as? [String] == ["displayName"])
        let (second, restoredPassword) = try T.restoredElsewhere(password)
        let password2 = try expectState(restoredPassword, MSALNativeAuthPasswordRequiredState.self)
        #expect(password2.scenario == .signUp && !password2.canRecoverPassword)
        second.v2(V2Fixture.submitAttributesPath, 200, V2Fixture.continued(token: "s4"))
        let after = try expectState(try await password2.submitPassword(Fixture.password), MSALNativeAuthSignInAfterSignUpState.self)
        #expect(second.stub.receivedRequests[0].jsonObject["continuationToken"] as? String == "s3")
        #expect(second.stub.receivedRequests[0].submittedAttributes == ["password": Fixture.password, "displayName": "Ada"])

        // Sign-in after sign-up: the continue link, the sign-up scenario kept.
        let afterDocument = try T.object(after.serialized())
        #expect(afterDocument["kind"] as? String == "v2SignInAfterSignUp" && afterDocument["purpose"] == nil)
        #expect(afterDocument["links"] as? [String: String] == ["continue": Self.authority + "oauth2/v2.0/authorize-challenge"])
        #expect(!String(decoding: after.serialized(), as: UTF8.self).contains(Fixture.password))
        let (third, restoredAfter) = try T.restoredElsewhere(after)
        let after2 = try expectState(restoredAfter, MSALNativeAuthSignInAfterSignUpState.self)
        #expect(after2.scenario == .signUp)
        third.v2Redeem()
        guard case .completed(let result, .signUp) = try await after2.signIn() else { throw UnexpectedOutcome("expected completion") }
        #expect(result.account.username == Fixture.username)
        #expect(third.stub.receivedRequests[0].formFields == ["continuation_token": "s4"])
        #expect(third.stubProblems.isEmpty && second.stubProblems.isEmpty, "\(third.stubProblems) \(second.stubProblems)")
    }

    @Test func anAttributesStateKeepsItsDescriptorsAndPrefill() async throws {
        let h = try Harness()
        let parameters = MSALNativeAuthSignUpParametersV2(username: Fixture.username)
        parameters.attributes = ["city": "Boston"]
        let code = try await signUpCode(h, parameters)
        h.v2(V2Fixture.path("auth/methods/email/m-new/verify"), 200, V2Fixture.collectAttributes(Self.passwordAndAttributes, token: "s3"))
        let password = try expectState(try await code.submitCode(Fixture.code), MSALNativeAuthPasswordRequiredState.self)
        h.v2(
            V2Fixture.submitAttributesPath, 200,
            V2Fixture.collectAttributes(
                [V2Fixture.attribute("displayName", label: "Display name"), V2Fixture.attribute("city", required: false)], token: "s4"))
        let attributes = try expectState(try await password.submitPassword(Fixture.password), MSALNativeAuthAttributesRequiredState.self)

        let bytes = attributes.serialized()
        let document = try T.object(bytes)
        #expect(document["kind"] as? String == "v2AttributesRequired" && document["scenario"] as? String == "signUp")
        let saved = try #require(document["attributes"] as? [[String: Any]])
        #expect(saved.map { $0["id"] as? String } == ["displayName", "city"] && saved[0]["label"] as? String == "Display name")
        #expect(saved[0]["required"] as? Bool == true && saved[1]["required"] as? Bool == false)
        // city went with the password in the step that made this state: asked again, it is the app's to give.
        #expect((document["signUp"] as? [String: Any])?["submittedIds"] as? [String] == [])
        #expect(!String(decoding: bytes, as: UTF8.self).contains(Fixture.password))

        let (other, result) = try T.restoredElsewhere(attributes)
        let restored = try expectState(result, MSALNativeAuthAttributesRequiredState.self)
        #expect(restored.scenario == .signUp && restored.attributes.map(\.name) == ["displayName", "city"])
        #expect(restored.attributes[0].label == "Display name" && restored.attributes[0].required && !restored.attributes[1].required)
        other.v2(V2Fixture.submitAttributesPath, 200, V2Fixture.continued(token: "s5"))
        _ = try expectState(try await restored.submitAttributes(["displayName": "Ada"]), MSALNativeAuthSignInAfterSignUpState.self)
        #expect(other.stub.receivedRequests[0].jsonObject["continuationToken"] as? String == "s4")
        #expect(other.stub.receivedRequests[0].submittedAttributes == ["displayName": "Ada"])
        #expect(other.stubProblems.isEmpty, "\(other.stubProblems)")
    }

    @Test func aRestoredAttributesStateSendsItsPrefillWithTheAppsValues() async throws {
        let h = try Harness()
        let document = try await attributesDocument(h)
        let other = try Harness()
        let restored = try expectState(
            try other.app.restoreStateV2(serialized: try T.data(document)), MSALNativeAuthAttributesRequiredState.self)
        other.v2(V2Fixture.submitAttributesPath, 200, V2Fixture.continued(token: "s4"))
        _ = try expectState(try await restored.submitAttributes(["city": "Oslo"]), MSALNativeAuthSignInAfterSignUpState.self)
        #expect(other.stub.receivedRequests[0].submittedAttributes == ["displayName": "Ada", "city": "Oslo"])
        #expect(other.stubProblems.isEmpty, "\(other.stubProblems)")
    }

    @Test func aPasswordGivenUpFrontIsNeverSavedAndIsAskedForAgain() async throws {
        let h = try Harness()
        let parameters = MSALNativeAuthSignUpParameters(username: Fixture.username)
        parameters.password = "Up-Front-Secret-1"
        h.v2SignUpStart(V2Fixture.collectAttributes([V2Fixture.attribute("email")], token: "s1"))
        h.v2(V2Fixture.submitAttributesPath, 200, V2Fixture.verify("m-new", "email", hint: "a****a@c****o", codeLength: 8, token: "s2"))
        let code = try expectState(try await h.app.signUpV2(parameters: parameters), MSALNativeAuthCodeRequiredState.self)
        #expect(!String(decoding: code.serialized(), as: UTF8.self).contains("Up-Front-Secret-1"))
        h.v2(V2Fixture.path("auth/methods/email/m-new/verify"), 200, V2Fixture.collectAttributes(Self.passwordAndAttributes, token: "s3"))
        let attributes = try expectState(try await code.submitCode(Fixture.code), MSALNativeAuthAttributesRequiredState.self)
        let bytes = attributes.serialized()
        #expect(!String(decoding: bytes, as: UTF8.self).contains("Up-Front-Secret-1"))
        #expect((try T.object(bytes)["signUp"] as? [String: Any])?["submittedIds"] as? [String] == ["password"])

        let (other, result) = try T.restoredElsewhere(attributes)
        let restored = try expectState(result, MSALNativeAuthAttributesRequiredState.self)
        other.v2(
            V2Fixture.submitAttributesPath, 200,
            V2Fixture.collectAttributes([V2Fixture.attribute("password", "password")], token: "s4"))
        let password = try expectState(
            try await restored.submitAttributes(["displayName": "Ada"]), MSALNativeAuthPasswordRequiredState.self)
        #expect(other.stub.receivedRequests[0].submittedAttributes == ["displayName": "Ada"])
        other.v2(V2Fixture.submitAttributesPath, 200, V2Fixture.continued(token: "s5"))
        _ = try expectState(try await password.submitPassword("Up-Front-Secret-1"), MSALNativeAuthSignInAfterSignUpState.self)
        #expect(other.stubProblems.isEmpty, "\(other.stubProblems)")
    }

    // MARK: Password reset

    @Test func aResetContinuesElsewhereAtEveryStep() async throws {
        let h = try Harness()
        h.v2ResetStart(V2Fixture.recoveryChallenge(V2Fixture.recoveryMethods, token: "p1"))
        let selection = try expectState(
            try await h.app.resetPasswordV2(parameters: MSALNativeAuthResetPasswordParametersV2(username: Fixture.username)),
            MSALNativeAuthAuthMethodSelectionRequiredState.self)
        let selectionDocument = try T.object(selection.serialized())
        #expect(selectionDocument["scenario"] as? String == "passwordReset" && selectionDocument["purpose"] as? String == "recovery")
        #expect(selectionDocument["signUp"] == nil)

        let (first, restoredSelection) = try T.restoredElsewhere(selection)
        let selection2 = try expectState(restoredSelection, MSALNativeAuthAuthMethodSelectionRequiredState.self)
        #expect(selection2.purpose == .recovery && selection2.scenario == .passwordReset)
        first.v2(V2Fixture.path("auth/methods/email/r-e/challenge"), 200, V2Fixture.verify("r-e", "email", codeLength: 8, token: "p2"))
        let code = try expectState(try await selection2.selectAuthMethod(selection2.authMethods[0]), MSALNativeAuthCodeRequiredState.self)

        let (second, restoredCode) = try T.restoredElsewhere(code)
        let code2 = try expectState(restoredCode, MSALNativeAuthCodeRequiredState.self)
        #expect(code2.scenario == .passwordReset)
        second.v2(V2Fixture.path("auth/methods/email/r-e/verify"), 200, V2Fixture.update(token: "p3"))
        let newPassword = try expectState(try await code2.submitCode(Fixture.code), MSALNativeAuthNewPasswordRequiredState.self)

        let newPasswordDocument = try T.object(newPassword.serialized())
        #expect(newPasswordDocument["kind"] as? String == "v2NewPasswordRequired" && newPasswordDocument["purpose"] == nil)
        #expect(newPasswordDocument["links"] as? [String: String] == ["update": Self.authority + "api/v2.0/auth/methods/password/m-p"])
        let (third, restoredNewPassword) = try T.restoredElsewhere(newPassword)
        let newPassword2 = try expectState(restoredNewPassword, MSALNativeAuthNewPasswordRequiredState.self)
        #expect(newPassword2.scenario == .passwordReset)
        let update = V2Fixture.path("auth/methods/password/m-p")
        third.v2Put(update, 200, V2Fixture.poll(token: "p4"))
        third.v2(update + "/pollUpdate", 200, V2Fixture.continued(token: "p5"))
        let after = try expectState(
            try await newPassword2.submitNewPassword("Apollo-11-Eagle-Landed"), MSALNativeAuthSignInAfterResetPasswordState.self)
        #expect(third.stub.receivedRequests[0].jsonBody == ["continuationToken": "p3", "newPassword": "Apollo-11-Eagle-Landed"])
        #expect(!String(decoding: after.serialized(), as: UTF8.self).contains("Apollo-11"))

        #expect(try T.object(after.serialized())["kind"] as? String == "v2SignInAfterResetPassword")
        let (fourth, restoredAfter) = try T.restoredElsewhere(after)
        let after2 = try expectState(restoredAfter, MSALNativeAuthSignInAfterResetPasswordState.self)
        fourth.v2Redeem()
        guard case .completed(_, .passwordReset) = try await after2.signIn() else { throw UnexpectedOutcome("expected completion") }
        #expect(fourth.stub.receivedRequests[0].formFields == ["continuation_token": "p5"])
        for harness in [first, second, third, fourth] { #expect(harness.stubProblems.isEmpty, "\(harness.stubProblems)") }
    }

    @Test func mfaAfterResetContinuesElsewhereInTheResetScenario() async throws {
        let h = try Harness()
        h.v2ResetStart(V2Fixture.recoveryChallenge([V2Fixture.method("r-e", "email", hint: "m****t@e****e")], token: "p1"))
        h.v2(V2Fixture.path("auth/methods/email/r-e/challenge"), 200, V2Fixture.verify("r-e", "email", codeLength: 8, token: "p2"))
        let code = try expectState(
            try await h.app.resetPasswordV2(parameters: MSALNativeAuthResetPasswordParametersV2(username: Fixture.username)),
            MSALNativeAuthCodeRequiredState.self)
        h.v2(V2Fixture.path("auth/methods/email/r-e/verify"), 200, V2Fixture.update(token: "p3"))
        let newPassword = try expectState(try await code.submitCode(Fixture.code), MSALNativeAuthNewPasswordRequiredState.self)
        let update = V2Fixture.path("auth/methods/password/m-p")
        h.v2Put(update, 200, V2Fixture.poll(token: "p4"))
        h.v2(update + "/pollUpdate", 200, V2Fixture.challenge("multiFactor", V2Fixture.mfaMethods, token: "p5"))
        let mfa = try expectState(try await newPassword.submitNewPassword("Apollo-11"), MSALNativeAuthAuthMethodSelectionRequiredState.self)

        let (first, restoredMFA) = try T.restoredElsewhere(mfa)
        let mfa2 = try expectState(restoredMFA, MSALNativeAuthAuthMethodSelectionRequiredState.self)
        #expect(mfa2.purpose == .mfa && mfa2.scenario == .passwordReset)
        first.v2(
            V2Fixture.path("auth/methods/email/7f1c-a001/challenge"), 200,
            V2Fixture.verify("7f1c-a001", "email", codeLength: 8, token: "p6"))
        let challenge = try expectState(
            try await mfa2.selectAuthMethod(mfa2.authMethods[0]), MSALNativeAuthMFAVerificationRequiredState.self)

        let (second, restoredChallenge) = try T.restoredElsewhere(challenge)
        let challenge2 = try expectState(restoredChallenge, MSALNativeAuthMFAVerificationRequiredState.self)
        #expect(challenge2.scenario == .passwordReset)
        second.v2(V2Fixture.path("auth/methods/email/7f1c-a001/verify"), 200, V2Fixture.continued(token: "p7"))
        _ = try expectState(try await challenge2.submitChallenge(Fixture.code), MSALNativeAuthSignInAfterResetPasswordState.self)
        #expect(first.stubProblems.isEmpty && second.stubProblems.isEmpty, "\(first.stubProblems) \(second.stubProblems)")
    }

    @Test func anInlineRecoveryNewPasswordStaysInTheSignIn() async throws {
        let h = try Harness()
        h.v2Start(V2Fixture.challenge("singleFactor", [V2Fixture.method("m-p", "password")], token: "c1"))
        h.v2(V2Fixture.path("auth/methods/password/m-p/challenge"), 200, V2Fixture.verify("m-p", "password", token: "c2"))
        let password = try expectState(try await h.app.signInV2(parameters: h.v2Parameters), MSALNativeAuthPasswordRequiredState.self)
        h.v2(
            V2Fixture.path("auth/methods/password/m-p/recover"), 200,
            V2Fixture.recoveryChallenge([V2Fixture.method("r-e", "email", hint: "m****t@e****e")], token: "r1"))
        h.v2(V2Fixture.path("auth/methods/email/r-e/challenge"), 200, V2Fixture.verify("r-e", "email", codeLength: 8, token: "r2"))
        let code = try expectState(try await password.recoverPassword(), MSALNativeAuthCodeRequiredState.self)
        h.v2(V2Fixture.path("auth/methods/email/r-e/verify"), 200, V2Fixture.update(token: "r3"))
        let newPassword = try expectState(try await code.submitCode(Fixture.code), MSALNativeAuthNewPasswordRequiredState.self)
        #expect(try T.object(newPassword.serialized())["scenario"] as? String == "signIn")

        let (other, result) = try T.restoredElsewhere(newPassword)
        let restored = try expectState(result, MSALNativeAuthNewPasswordRequiredState.self)
        let update = V2Fixture.path("auth/methods/password/m-p")
        other.v2Put(update, 200, V2Fixture.poll(token: "r4"))
        other.v2Finish(after: update + "/pollUpdate")
        guard case .completed(_, .signIn) = try await restored.submitNewPassword("Apollo-11") else {
            throw UnexpectedOutcome("expected the sign-in to complete")
        }
        #expect(other.stubProblems.isEmpty, "\(other.stubProblems)")
    }

    // MARK: Refusals

    /// An attributes state's document, to edit.
    func attributesDocument(_ h: Harness) async throws -> [String: Any] {
        let code = try await signUpCode(h, signUpParameters)
        h.v2(
            V2Fixture.path("auth/methods/email/m-new/verify"), 200,
            V2Fixture.collectAttributes([V2Fixture.attribute("displayName"), V2Fixture.attribute("city")], token: "s3"))
        // displayName is known, city is not: the attributes state, with displayName prefilled.
        let state = try expectState(try await code.submitCode(Fixture.code), MSALNativeAuthAttributesRequiredState.self)
        return try T.object(state.serialized())
    }

    func restoreError(_ h: Harness, _ document: [String: Any]) -> RestoreStateError? {
        T.error { _ = try h.app.restoreStateV2(serialized: try T.data(document)) }
    }

    @Test func anAttributesStateWithoutItsDescriptorsOrWithAForeignLinkIsMalformed() async throws {
        let h = try Harness()
        let document = try await attributesDocument(h)
        #expect((document["signUp"] as? [String: Any])?["submittedIds"] as? [String] == ["displayName"])
        _ = try #require(try h.app.restoreStateV2(serialized: try T.data(document)).restoredState)

        var edited = document
        edited["attributes"] = nil
        let missing = try #require(restoreError(h, edited))
        #expect(missing.isMalformed && missing.errorDescription?.contains("needs its attributes") == true, "\(missing)")
        edited = document
        edited["attributes"] = [["id": "displayName"]]
        #expect(restoreError(h, edited)?.isMalformed == true, "a descriptor lacking members")
        edited = document
        edited["links"] = ["submitAttributes": "https://attacker.example/contoso.onmicrosoft.com/api/v2.0/signup/submitattributes"]
        let foreign = try #require(restoreError(h, edited))
        #expect(foreign.isMalformed && foreign.errorDescription?.contains("another host") == true, "\(foreign)")
        edited["links"] = nil
        #expect(restoreError(h, edited)?.isMalformed == true, "no submitAttributes link")
    }

    @Test func aKindInAnotherScenarioIsMalformed() async throws {
        let h = try Harness()
        let document = try await attributesDocument(h)
        for (kind, scenario) in [
            ("v2AttributesRequired", "signIn"), ("v2AttributesRequired", "passwordReset"), ("v2SignInAfterSignUp", "passwordReset"),
            ("v2SignInAfterResetPassword", "signUp"), ("v2NewPasswordRequired", "signUp"), ("v2AttributesRequired", "unknown"),
            ("v2AttributesRequired", "signup"),
        ] {
            var edited = document
            edited["kind"] = kind
            edited["scenario"] = scenario
            if scenario != "signUp" { edited["signUp"] = nil }
            let error = try #require(restoreError(h, edited), "\(kind) in \(scenario)")
            #expect(error.isMalformed, "\(kind) in \(scenario): \(error)")
        }
        // A sign-in-after-sign-up state saved in the sign-up restores; the same bytes claiming another scenario do not.
        var after = document
        after["kind"] = "v2SignInAfterSignUp"
        after["links"] = ["continue": Self.authority + "oauth2/v2.0/authorize-challenge"]
        guard case .signInAfterSignUp(let state) = try h.app.restoreStateV2(serialized: try T.data(after)) else {
            throw UnexpectedOutcome("expected signInAfterSignUp")
        }
        #expect(state.scenario == .signUp)
        after["links"] = ["continue": "https://attacker.example/contoso.onmicrosoft.com/oauth2/v2.0/authorize-challenge"]
        #expect(restoreError(h, after)?.isMalformed == true, "a foreign continue link")
    }

    @Test func theSignUpMembersAreChecked() async throws {
        let h = try Harness()
        let document = try await attributesDocument(h)
        let signUp = try #require(document["signUp"] as? [String: Any])

        var edited = document
        edited["signUp"] = nil
        #expect(restoreError(h, edited)?.isMalformed == true, "a sign-up state without its signUp member")
        edited = document
        var changed = signUp
        changed["submittedIds"] = ["displayName", "shoeSize"]
        edited["signUp"] = changed
        let unvalued = try #require(restoreError(h, edited))
        #expect(unvalued.isMalformed && unvalued.errorDescription?.contains("shoeSize") == true)
        changed = signUp
        changed["pendingAttributes"] = ["password": "Smuggled-1"]
        edited["signUp"] = changed
        #expect(restoreError(h, edited)?.isMalformed == true, "a password among the pending attributes")
        changed["pendingAttributes"] = ["displayName": ["nested": true]]
        edited["signUp"] = changed
        #expect(restoreError(h, edited)?.isMalformed == true, "a value attributes cannot carry")

        // A sign-in state with sign-up members.
        var signIn = try T.object(try await V2SavedStateTests().codeState(h).serialized())
        signIn["signUp"] = signUp
        #expect(restoreError(h, signIn)?.isMalformed == true)
        // The sign-up's password kind needs the sign-up and one submit link.
        var password = document
        password["kind"] = "v2PasswordRequired"
        password["purpose"] = "firstFactor"
        guard case .passwordRequired = try h.app.restoreStateV2(serialized: try T.data(password)) else {
            throw UnexpectedOutcome("expected passwordRequired")
        }
        var links = try #require(password["links"] as? [String: String])
        links["verify"] = Self.authority + "api/v2.0/auth/methods/password/m-p/verify"
        password["links"] = links
        #expect(restoreError(h, password)?.isMalformed == true, "both submit links")
    }

    @Test func aSignUpOverTheSizeLimitIsMalformedAndAnOldOneExpires() async throws {
        let h = try Harness()
        let parameters = MSALNativeAuthSignUpParametersV2(username: Fixture.username)
        parameters.attributes = ["biography": String(repeating: "x", count: SavedStateEnvelope.maximumSize)]
        let code = try await signUpCode(h, parameters)
        let large = try #require(T.error { _ = try h.app.restoreStateV2(serialized: code.serialized()) })
        #expect(large.isMalformed && large.errorDescription?.contains("more than the 65536") == true)

        let bytes = try T.data(try await attributesDocument(h))
        try await h.clock.sleep(seconds: 601)
        #expect(T.error { _ = try h.app.restoreStateV2(serialized: bytes) }?.isExpired == true)
    }

    @Test func theGenericRestoreTakesTheNewClasses() async throws {
        let h = try Harness()
        let bytes = try T.data(try await attributesDocument(h))
        let state = try h.app.restoreState(serialized: bytes, as: MSALNativeAuthAttributesRequiredState.self)
        #expect(state.attributes.map(\.name) == ["displayName", "city"])
        let error = try #require(T.error { _ = try h.app.restoreState(serialized: bytes, as: MSALNativeAuthSignInAfterSignUpState.self) })
        #expect(error.isWrongKind && error.errorDescription?.contains("v2AttributesRequired") == true)
    }
}
