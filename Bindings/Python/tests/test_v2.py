"""Native auth V2 (experimental) through the package, against the emulator's V2 journeys: each in
the blocking and the coroutine form, the error classes, saved steps restored and continued."""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
import uuid
import warnings

import pytest

import msal_native_auth as m
from conftest import TODOLIST, Emulator

BARBARA = "Substitution-Principle-1987"
ALAN = "Turing-Machine-1936"


def new_address() -> str:
    return f"py-v2-{uuid.uuid4().hex[:12]}@example.com"


def test_email_code_sign_in(emulator: Emulator) -> None:
    with emulator.app() as app:
        step = app.sign_in_v2("grace@example.com", scopes=[TODOLIST])
        assert isinstance(step, m.CodeRequiredState) and step.scenario == m.Scenario.SIGN_IN
        assert step.channel == "email" and step.code_length == 8 and "****" in step.sent_to
        with pytest.raises(m.InvalidCodeError):
            step.submit_code("00000000")
        done = step.submit_code(emulator.code("grace@example.com", "sign_in"))
        assert isinstance(done, m.SignedIn) and done.scenario == m.Scenario.SIGN_IN
        assert done.account is not None and done.account.username == "grace@example.com"
        assert done.account.get_access_token([TODOLIST]).access_token
        step.close()


def test_email_code_sign_in_async(emulator: Emulator) -> None:
    async def journey() -> None:
        with emulator.app() as app:
            step = await app.sign_in_v2_async("grace@example.com")
            assert isinstance(step, m.CodeRequiredState)
            again = await step.resend_code_async()
            assert isinstance(again, m.CodeRequiredState) and again.scenario == m.Scenario.SIGN_IN
            with pytest.raises(m.InvalidCodeError):
                await again.submit_code_async("00000000")
            done = await again.submit_code_async(emulator.code("grace@example.com", "sign_in"))
            assert isinstance(done, m.SignedIn) and done.account is not None
            assert done.account.username == "grace@example.com"

    asyncio.run(journey())


def test_password_sign_in_after_a_choice_of_methods(emulator: Emulator) -> None:
    with emulator.app() as app:
        selection = app.sign_in_v2("barbara@example.com")
        assert isinstance(selection, m.AuthMethodSelectionRequiredState) and selection.purpose == "first_factor"
        assert [method.challenge_type for method in selection.auth_methods] == ["password", "email"]
        with pytest.raises(m.InvalidArgumentError):
            selection.select_auth_method(5)
        password = selection.select_auth_method(selection.auth_methods[0])
        assert isinstance(password, m.PasswordRequiredState) and password.can_recover_password
        with pytest.raises(m.InvalidPasswordError):
            password.submit_password("wrong")
        assert isinstance(password.submit_password(BARBARA), m.SignedIn)
        # The sign-in is over: the service refuses a second choice on the selection (its token is retired).
        with pytest.raises(m.GeneralError):
            selection.select_auth_method(1)


def test_a_method_the_step_did_not_offer_is_refused_before_anything_is_sent(emulator: Emulator) -> None:
    with emulator.app() as app:
        selection = app.sign_in_v2("barbara@example.com")
        assert isinstance(selection, m.AuthMethodSelectionRequiredState)
        offered = selection.auth_methods[1]
        strangers = [
            dataclasses.replace(offered, id="not-" + offered.id),  # a method of another step, or made up
            m.AuthMethod(id="0", challenge_type="email", channel="email"),
        ]
        before = len(emulator.requests())
        for stranger in strangers:
            with pytest.raises(ValueError, match="not one of this step's auth_methods"):
                selection.select_auth_method(stranger)
            with pytest.raises(ValueError, match="not one of this step's auth_methods"):
                asyncio.run(selection.select_auth_method_async(stranger))
        assert len(emulator.requests()) == before, "a refused method sent a request"
        # The step is not spent: the offered method still works.
        assert isinstance(selection.select_auth_method(offered), m.CodeRequiredState)


def test_choice_of_the_email_code_async(emulator: Emulator) -> None:
    async def journey() -> None:
        with emulator.app() as app:
            selection = await app.sign_in_v2_async("barbara@example.com")
            assert isinstance(selection, m.AuthMethodSelectionRequiredState)
            code = await selection.select_auth_method_async(1)
            assert isinstance(code, m.CodeRequiredState) and code.channel == "email"
            done = await code.submit_code_async(emulator.code("barbara@example.com", "sign_in"))
            assert isinstance(done, m.SignedIn) and done.account is not None and done.account.username == "barbara@example.com"

    asyncio.run(journey())


def mfa_selection(app: m.PublicClientApplication) -> m.AuthMethodSelectionRequiredState:
    password = app.sign_in_v2("alan@example.com")
    assert isinstance(password, m.PasswordRequiredState)
    selection = password.submit_password(ALAN)
    assert isinstance(selection, m.AuthMethodSelectionRequiredState) and selection.purpose == "mfa"
    return selection


def test_mfa_with_a_resent_code(emulator: Emulator) -> None:
    with emulator.app() as app:
        selection = mfa_selection(app)
        email = next(method for method in selection.auth_methods if method.channel == "email")
        verification = selection.select_auth_method(email)
        assert isinstance(verification, m.MFAVerificationRequiredState) and verification.code_length == 8
        with pytest.raises(m.InvalidCodeError):
            verification.submit_challenge("00000000")
        resent = verification.resend_challenge()
        assert isinstance(resent, m.MFAVerificationRequiredState)
        done = resent.submit_challenge(emulator.code("alan@example.com", "mfa"))
        assert isinstance(done, m.SignedIn) and done.account is not None and done.account.username == "alan@example.com"


def test_mfa_async(emulator: Emulator) -> None:
    async def journey() -> None:
        with emulator.app() as app:
            password = await app.sign_in_v2_async("alan@example.com")
            assert isinstance(password, m.PasswordRequiredState)
            selection = await password.submit_password_async(ALAN)
            assert isinstance(selection, m.AuthMethodSelectionRequiredState)
            email = next(method for method in selection.auth_methods if method.channel == "email")
            verification = await selection.select_auth_method_async(email)
            assert isinstance(verification, m.MFAVerificationRequiredState)
            resent = await verification.resend_challenge_async()
            done = await resent.submit_challenge_async(emulator.code("alan@example.com", "mfa"))
            assert isinstance(done, m.SignedIn) and done.scenario == m.Scenario.SIGN_IN

    asyncio.run(journey())


def test_just_in_time_registration_of_a_phone_async(emulator: Emulator) -> None:
    """A user who must pass MFA and has no method yet registers one after the password."""
    username = emulator.new_user(password="Registered-In-Py-2026", mfa_required=True)

    async def journey() -> None:
        with emulator.app() as app:
            password = await app.sign_in_v2_async(username)
            assert isinstance(password, m.PasswordRequiredState)
            registration = await password.submit_password_async("Registered-In-Py-2026")
            assert isinstance(registration, m.StrongAuthRegistrationRequiredState)
            sms = next(method for method in registration.auth_methods if method.channel == "sms")
            with pytest.raises(m.InvalidInputError):
                await registration.select_auth_method_async(sms, "555")
            verification = await registration.select_auth_method_async(sms, "+15550123")
            assert isinstance(verification, m.StrongAuthVerificationRequiredState) and verification.channel == "sms"
            with pytest.raises(m.InvalidCodeError):
                await verification.submit_challenge_async("000000")
            done = await verification.submit_challenge_async(emulator.code(username, "registration"))
            assert isinstance(done, m.SignedIn) and done.account is not None and done.account.username == username

    asyncio.run(journey())


def test_sign_up_of_an_existing_account_signs_it_in(emulator: Emulator) -> None:
    """barbara exists with a password and an email code: a sign-up asks which, then signs her in."""
    with emulator.app() as app:
        selection = app.sign_up_v2("barbara@example.com")
        assert isinstance(selection, m.AuthMethodSelectionRequiredState) and selection.purpose == "existing_account"
        assert selection.scenario == m.Scenario.SIGN_UP
        password = selection.select_auth_method(next(method for method in selection.auth_methods if method.challenge_type == "password"))
        assert isinstance(password, m.PasswordRequiredState)
        after = password.submit_password(BARBARA)
        assert isinstance(after, m.SignInAfterSignUpState) and after.scenario == m.Scenario.SIGN_UP
        done = after.sign_in([TODOLIST])
        assert isinstance(done, m.SignedIn) and done.account is not None and done.account.username == "barbara@example.com"


def sign_up(app: m.PublicClientApplication, emulator: Emulator, username: str, password: str) -> None:
    """A V2 sign-up with displayName from the options, then the sign-in after it."""
    code = app.sign_up_v2(username, attributes={"displayName": "Py Tester"})
    assert isinstance(code, m.CodeRequiredState) and code.scenario == m.Scenario.SIGN_UP
    asked = code.submit_code(emulator.code(username, "sign_up"))
    assert isinstance(asked, m.PasswordRequiredState) and not asked.can_recover_password
    with pytest.raises(m.InvalidPasswordError):
        asked.submit_password("short")
    after = asked.submit_password(password)
    assert isinstance(after, m.SignInAfterSignUpState) and after.scenario == m.Scenario.SIGN_UP
    done = after.sign_in([TODOLIST])
    assert isinstance(done, m.SignedIn) and done.scenario == m.Scenario.SIGN_UP
    assert done.account is not None and done.account.username == username


def test_sign_up_with_attributes_then_sign_in(emulator: Emulator) -> None:
    username = new_address()
    with emulator.app() as app:
        sign_up(app, emulator, username, "Signed-Up-In-Py-2026")
        again = app.sign_in_v2(username)
        assert isinstance(again, m.PasswordRequiredState)
        assert isinstance(again.submit_password("Signed-Up-In-Py-2026"), m.SignedIn)


def test_sign_up_asks_for_attributes_and_refuses_bad_ones_async(emulator: Emulator) -> None:
    username = new_address()

    async def journey() -> None:
        with emulator.app() as app:
            code = await app.sign_up_v2_async(username)
            assert isinstance(code, m.CodeRequiredState)
            asked = await code.submit_code_async(emulator.code(username, "sign_up"))
            assert isinstance(asked, m.PasswordRequiredState)
            attributes = await asked.submit_password_async("Signed-Up-In-Py-2026")
            assert isinstance(attributes, m.AttributesRequiredState)
            assert [(a.name, a.required) for a in attributes.attributes] == [("displayName", True)]
            with pytest.raises(m.InvalidAttributesError) as refused:
                await attributes.submit_attributes_async({"displayName": "y" * 65})
            assert refused.value.attribute_names == ["displayName"] and refused.value.code == 50
            after = await attributes.submit_attributes_async({"displayName": "Mae"})
            assert isinstance(after, m.SignInAfterSignUpState)
            done = await after.sign_in_async()
            assert isinstance(done, m.SignedIn) and done.scenario == m.Scenario.SIGN_UP

    asyncio.run(journey())


def test_reset_then_sign_in_after_reset(emulator: Emulator) -> None:
    username = emulator.new_user(password="Before-Reset-Py-1")
    with emulator.app() as app:
        code = app.reset_password_v2(username)
        assert isinstance(code, m.CodeRequiredState) and code.scenario == m.Scenario.PASSWORD_RESET
        new_password = code.submit_code(emulator.code(username, "reset_password"))
        assert isinstance(new_password, m.NewPasswordRequiredState)
        with pytest.raises(m.InvalidPasswordError):
            new_password.submit_new_password("short")
        after = new_password.submit_new_password("After-Reset-Py-2")
        assert isinstance(after, m.SignInAfterResetPasswordState) and after.scenario == m.Scenario.PASSWORD_RESET
        done = after.sign_in()
        assert isinstance(done, m.SignedIn) and done.scenario == m.Scenario.PASSWORD_RESET
        again = app.sign_in_v2(username)
        assert isinstance(again, m.PasswordRequiredState)
        with pytest.raises(m.InvalidPasswordError):
            again.submit_password("Before-Reset-Py-1")
        assert isinstance(again.submit_password("After-Reset-Py-2"), m.SignedIn)


def test_reset_async_and_inline_recovery(emulator: Emulator) -> None:
    username = emulator.new_user(password="Before-Reset-Py-3")

    async def journey() -> None:
        with emulator.app() as app:
            code = await app.reset_password_v2_async(username)
            assert isinstance(code, m.CodeRequiredState)
            new_password = await code.submit_code_async(emulator.code(username, "reset_password"))
            assert isinstance(new_password, m.NewPasswordRequiredState)
            after = await new_password.submit_new_password_async("After-Reset-Py-4")
            assert isinstance(after, m.SignInAfterResetPasswordState)
            assert isinstance(await after.sign_in_async(), m.SignedIn)
            # Inline recovery from the sign-in's password step: the sign-in completes.
            password = await app.sign_in_v2_async(username)
            assert isinstance(password, m.PasswordRequiredState) and password.can_recover_password
            recovery = await password.recover_password_async()
            assert isinstance(recovery, m.CodeRequiredState)
            new = await recovery.submit_code_async(emulator.code(username, "reset_password"))
            assert isinstance(new, m.NewPasswordRequiredState)
            done = await new.submit_new_password_async("After-Recovery-Py-5")
            assert isinstance(done, m.SignedIn) and done.scenario == m.Scenario.SIGN_IN

    asyncio.run(journey())


def test_saved_steps_restore_to_their_class_and_continue(emulator: Emulator) -> None:
    with emulator.app() as app, emulator.app() as later:
        code = app.sign_in_v2("grace@example.com")
        assert isinstance(code, m.CodeRequiredState)
        saved = code.save()
        code.close()
        restored = later.restore_state(saved)
        assert isinstance(restored, m.CodeRequiredState) and restored.scenario == m.Scenario.SIGN_IN
        assert restored.code_length == 8 and restored.channel == "email"
        assert later.restore_state(saved, kind=m.StateKind.V2_CODE_REQUIRED).state is not None  # type: ignore[union-attr]
        with pytest.raises(m.StateWrongKindError):
            later.restore_state(saved, kind=m.StateKind.SIGN_IN_CODE_REQUIRED)
        done = restored.submit_code(emulator.code("grace@example.com", "sign_in"))
        assert isinstance(done, m.SignedIn) and done.account is not None and done.account.username == "grace@example.com"

        selection = app.sign_in_v2("barbara@example.com")
        assert isinstance(selection, m.AuthMethodSelectionRequiredState)
        back = later.restore_state(selection.save())
        assert isinstance(back, m.AuthMethodSelectionRequiredState) and back.purpose == "first_factor"
        assert back.auth_methods == selection.auth_methods
        password = back.select_auth_method(0)
        assert isinstance(password, m.PasswordRequiredState)
        assert isinstance(later.restore_state(password.save()), m.PasswordRequiredState)
        assert isinstance(password.submit_password(BARBARA), m.SignedIn)
        # A V1 state restores as before: a FlowState.
        v1 = app.sign_in("ada@example.com")
        assert v1.state is not None
        assert isinstance(later.restore_state(v1.state.dumps()), m.FlowState)
        v1.close()


def test_saved_reset_and_sign_up_steps_continue_in_another_app(emulator: Emulator) -> None:
    """A reset saved at the new password and at the sign-in after it, and a sign-up saved at its
    attributes, each restored into another application and finished there."""
    username = emulator.new_user(password="Before-Saved-Reset-1")
    with emulator.app() as app, emulator.app() as later:
        code = app.reset_password_v2(username)
        assert isinstance(code, m.CodeRequiredState)
        new_password = code.submit_code(emulator.code(username, "reset_password"))
        assert isinstance(new_password, m.NewPasswordRequiredState)
        restored = later.restore_state(new_password.save())
        assert isinstance(restored, m.NewPasswordRequiredState) and restored.scenario == m.Scenario.PASSWORD_RESET
        after = restored.submit_new_password("After-Saved-Reset-2")
        assert isinstance(after, m.SignInAfterResetPasswordState)
        back = app.restore_state(after.save())
        assert isinstance(back, m.SignInAfterResetPasswordState) and back.scenario == m.Scenario.PASSWORD_RESET
        done = back.sign_in()
        assert isinstance(done, m.SignedIn) and done.account is not None and done.account.username == username

        newcomer = new_address()
        signing_up = app.sign_up_v2(newcomer)
        assert isinstance(signing_up, m.CodeRequiredState)
        password = signing_up.submit_code(emulator.code(newcomer, "sign_up"))
        assert isinstance(password, m.PasswordRequiredState)
        attributes = password.submit_password("Saved-Sign-Up-In-Py-3")
        assert isinstance(attributes, m.AttributesRequiredState)
        resumed = later.restore_state(attributes.save())
        assert isinstance(resumed, m.AttributesRequiredState) and resumed.scenario == m.Scenario.SIGN_UP
        assert [attribute.name for attribute in resumed.attributes] == [attribute.name for attribute in attributes.attributes]
        finished = resumed.submit_attributes({"displayName": "Saved In Py"})
        assert isinstance(finished, m.SignInAfterSignUpState)
        assert isinstance(finished.sign_in(), m.SignedIn)


def test_error_classes(emulator: Emulator) -> None:
    assert m.ERROR_CLASSES[50] is m.InvalidAttributesError and issubclass(m.InvalidAttributesError, m.NativeAuthError)
    assert m.InvalidAttributesError(message="x", code=50).name == "MSAL_NA_ERR_INVALID_ATTRIBUTES"
    with emulator.app() as app:
        with pytest.raises(m.UserNotFoundError) as missing:
            app.sign_in_v2("nobody-v2@example.com")
        assert missing.value.correlation_id and 50034 in missing.value.error_codes
        with pytest.raises(m.BrowserRequiredError):
            app.sign_in_v2("hedy@example.com")
        with pytest.raises(m.UserDoesNotHavePasswordError):
            app.reset_password_v2("grace@example.com")
        with pytest.raises(m.InvalidArgumentError):
            app.sign_in_v2("grace@example.com", correlation_id="not-a-uuid")
        with pytest.raises(m.InvalidArgumentError):
            app.sign_in_v2(b"\xff\xfe")
        # A V2 step's state refuses V1-only operations; a closed step refuses every call.
        code = app.sign_in_v2("grace@example.com")
        assert isinstance(code, m.CodeRequiredState) and code.state is not None
        with pytest.raises(m.WrongStateError):
            code.state.request_challenge("email")
        code.close()  # closed: the handle is gone (NULL), as for V1 states
        with pytest.raises(m.InvalidArgumentError):
            code.submit_code("12345678")
        with pytest.raises(m.InvalidArgumentError):
            code.save()

    async def closed() -> None:
        with pytest.raises(m.InvalidArgumentError):
            await code.resend_code_async()

    asyncio.run(closed())


def test_v2_is_marked_experimental_and_warns_at_no_call(emulator: Emulator) -> None:
    for function in (m.PublicClientApplication.sign_in_v2, m.PublicClientApplication.sign_up_v2_async, m.CodeRequiredState):
        assert "xperimental" in (inspect.getdoc(function) or "")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with emulator.app() as app:
            app.sign_in_v2("ada@example.com").close()
